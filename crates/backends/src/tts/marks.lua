-- A sheet at a seat that its player marks as on paper: a button over every box at its printed
-- place; a click marks the box with an X, a second click clears it. The marks are the sheet's
-- saved state, so a save, a load and a rewind keep them; another script reads them with
-- `call("safariMarked")` (the ids of the boxes marked, in the sheet's order). While the seat's
-- player is seated, only they mark it.
--
-- The saved state: `colour` (the seat's), `page` ({width, height} in mm), `boxes` (each
-- {id, label, x, y, width, height}, in mm from the page's top left) and `marked` (ids).

local state = {}
local marked = {}

local INK = { 0.1, 0.1, 0.35 }
local CLEAR = { 0, 0, 0, 0 }
-- A button's position is in the button frame (docs/tabletop-simulator.md): +x toward the
-- image's right, -z toward its top, in the tile's units before its scale.
local LIFT = 0.11
-- Buttons are drawn at a quarter size and made four times larger, so that a small box's
-- button is above the game's smallest width.
local BUTTON_SCALE = 0.25
local UNITS_PER_LOCAL = 500 / BUTTON_SCALE
local half_width, half_depth = 0.7071, 1

local function measure()
  half_width, half_depth = SafariTable.half_extent(self, half_width, half_depth)
end

local handlers = SafariTable.handlers("marks_box_")

local function owner_allows(colour)
  local owner = state.colour
  if owner == nil or colour == owner or not (Player[owner] and Player[owner].seated) then
    return true
  end
  broadcastToColor("This is " .. owner .. "'s " .. tostring(self.getName()) .. ".", colour, { 1, 0.6, 0.3 })
  return false
end

local function toggle(n, colour)
  local box = state.boxes[n]
  if box == nil or not owner_allows(colour) then
    return
  end
  marked[box.id] = not marked[box.id] or nil
  self.editButton({ index = n - 1, label = marked[box.id] and "X" or "" })
end

local function render()
  self.clearButtons()
  handlers.reset()
  local page = state.page or { 210, 297 }
  for n, box in ipairs(state.boxes or {}) do
    local u = (box.x + box.width / 2) / page[1] - 0.5
    local v = (box.y + box.height / 2) / page[2] - 0.5
    local width = box.width / page[1] * 2 * half_width * UNITS_PER_LOCAL
    local height = box.height / page[2] * 2 * half_depth * UNITS_PER_LOCAL
    self.createButton({
      click_function = handlers.add(function(_, colour)
        toggle(n, colour)
      end),
      function_owner = self,
      label = marked[box.id] and "X" or "",
      position = { u * 2 * half_width, LIFT, v * 2 * half_depth },
      scale = { BUTTON_SCALE, 1, BUTTON_SCALE },
      width = width,
      height = height,
      font_size = math.min(width, height) * 0.9,
      color = CLEAR,
      hover_color = { 0.2, 0.4, 1, 0.25 },
      press_color = { 0.2, 0.4, 1, 0.45 },
      font_color = INK,
      tooltip = box.label or box.id,
    })
  end
end

-- The ids of the boxes marked, in the sheet's order.
function safariMarked()
  local ids = {}
  for _, box in ipairs(state.boxes or {}) do
    if marked[box.id] then
      table.insert(ids, box.id)
    end
  end
  return ids
end

function onLoad(script_state)
  state = SafariTable.decode_object(script_state) or {}
  marked = {}
  for _, id in ipairs(state.marked or {}) do
    marked[id] = true
  end
  measure()
  render()
  -- The tile takes its size from its image: measured again once the image has loaded.
  if Wait ~= nil then
    Wait.condition(function()
      measure()
      render()
    end, function()
      return not self.loading_custom
    end)
  end
end

function onSave()
  state.marked = safariMarked()
  return JSON.encode(state)
end
