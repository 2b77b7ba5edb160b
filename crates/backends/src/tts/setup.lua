-- The setup object of a table safari built: it asks how many play, and sets the table for
-- that many. The save is laid out for one number of players; for each other number, this
-- object's saved state lists the objects to take away (by GUID), the objects to move (by
-- GUID, to a place and a turn) and the objects to put out (as the game saves them). Once
-- chosen, it leaves the table, so that a saved game does not ask again.

local state = { counts = {}, layouts = {}, laid_out = 0 }
local raw = ""

local handlers = SafariTable.handlers("setup_click_")

local function choose(players)
  local layout = state.layouts[tostring(players)] or {}
  for _, guid in ipairs(layout.remove or {}) do
    local object = getObjectFromGUID(guid)
    if object ~= nil then
      object.destruct()
    end
  end
  for _, move in ipairs(layout.move or {}) do
    local object = getObjectFromGUID(move.guid)
    if object ~= nil then
      object.setPosition(move.position)
      object.setRotation(move.rotation)
    end
  end
  for _, data in ipairs(layout.spawn or {}) do
    spawnObjectData({ data = data })
  end
  broadcastToAll(tostring(self.getName()) .. ": the table is set for " .. players .. " player" .. (players == 1 and "" or "s") .. ".", { 0.6, 0.9, 0.6 })
  self.destruct()
end

local function render()
  self.clearButtons()
  handlers.reset()
  SafariTable.heading(self, handlers, "How many players?", 180)
  local count = #state.counts
  for n, players in ipairs(state.counts) do
    self.createButton({
      click_function = handlers.add(function()
        choose(players)
      end),
      function_owner = self,
      label = tostring(players),
      position = { (n - (count + 1) / 2) * 1.1, 0.6, 0 },
      width = 450,
      height = 450,
      font_size = 300,
      tooltip = players .. " players" .. (players == state.laid_out and " (as the table is laid out)" or ""),
    })
  end
end

function onLoad(script_state)
  raw = script_state or ""
  local decoded = SafariTable.decode_object(raw)
  if decoded == nil or type(decoded.counts) ~= "table" then
    broadcastToAll(tostring(self.getName()) .. ": this setup object carries no setups. Build the save again with `safari build`.", { 1, 0.35, 0.3 })
    return
  end
  state = decoded
  state.layouts = state.layouts or {}
  render()
end

function onSave()
  return raw
end
