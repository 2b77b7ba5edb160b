-- What a rules module's scripts on a table of components share, placed after common.lua and
-- before each such script: the ruleset the table carries, what an object is (its memo), the
-- seats in play and what each holds, and a block's button.

-- The ruleset the rules object that `wiring` names carries (`wiring.format`, version
-- `wiring.version`), or nil and why not.
function SafariTable.ruleset_of(wiring)
  local holder = SafariTable.rules_object(wiring)
  if holder == nil then
    return nil, "the table has no rules object. Load the save safari built again."
  end
  return SafariTable.read_ruleset(holder.script_state, wiring.format, "version", wiring.version)
end

-- What `object` is, as its memo says (`{deck, card}`, `{set, kind}`, `{pieces, piece}`,
-- `{sheet}`), or nil.
function SafariTable.what(object)
  local ok, memo = pcall(function()
    return object.memo
  end)
  if not ok then
    return nil
  end
  return SafariTable.decode_object(memo)
end

-- The hand zone of `seat` (its saved GUID; else, as a spawned object may get a new GUID, the
-- hand zone of its colour), or nil when the seat is not in play.
local function hand_zone(seat)
  local zone = seat.hand and getObjectFromGUID(seat.hand)
  if zone ~= nil then
    return zone
  end
  for _, object in ipairs(getObjects()) do
    local ok, colour = pcall(function()
      return object.type == "Hand" and object.getValue()
    end)
    if ok and colour == seat.colour then
      return object
    end
  end
  return nil
end

-- The sheet of `id` at `seat`: its saved GUID, else the sheet of that id named for the
-- seat's colour.
local function sheet_of(seat, id, guid)
  local sheet = guid and getObjectFromGUID(guid)
  if sheet ~= nil then
    return sheet
  end
  for _, object in ipairs(getObjects()) do
    local what = SafariTable.what(object)
    local name = tostring(object.getName())
    if what and what.sheet == id and string.sub(name, -#seat.colour - 2) == ": " .. seat.colour then
      return object
    end
  end
  return nil
end

-- The seats in play, in seat order, from a script's wiring (`seats`): those whose hand zone
-- is on the table, each with its `colour`, its `held` objects (what lies in its hand) and
-- its `sheets` (the objects, by sheet id). `held_by` names every held object's colour, by
-- GUID.
function SafariTable.seats_in_play(wiring)
  local seats, held_by = {}, {}
  for _, seat in ipairs(wiring.seats or {}) do
    if hand_zone(seat) ~= nil then
      local held = {}
      local ok, objects = pcall(function()
        return Player[seat.colour].getHandObjects()
      end)
      for _, object in ipairs(ok and objects or {}) do
        table.insert(held, object)
        held_by[object.getGUID()] = seat.colour
      end
      local sheets = {}
      for id, guid in pairs(seat.sheets or {}) do
        sheets[id] = sheet_of(seat, id, guid)
      end
      table.insert(seats, { colour = seat.colour, held = held, sheets = sheets })
    end
  end
  return seats, held_by
end

-- A block's one button, under a heading: `label`, calling `fn(colour)`.
function SafariTable.one_button(object, handlers, heading, label, tooltip, fn)
  object.clearButtons()
  handlers.reset()
  SafariTable.heading(object, handlers, heading, 160)
  object.createButton({
    click_function = handlers.add(function(_, colour)
      fn(colour)
    end),
    function_owner = object,
    label = label,
    position = { 0, 0.6, 0 },
    width = 1400,
    height = 300,
    font_size = 180,
    tooltip = tooltip,
  })
end

-- The seats with the best key (`better(a, b)` is true when a's is better), as colours.
function SafariTable.best(seats, better)
  local best = {}
  for _, seat in ipairs(seats) do
    if #best == 0 or better(seat, best[1]) then
      best = { seat }
    elseif not better(best[1], seat) then
      table.insert(best, seat)
    end
  end
  local colours = {}
  for _, seat in ipairs(best) do
    table.insert(colours, seat.colour)
  end
  return colours
end

-- "White and Red" (or one colour, or "nobody").
function SafariTable.names(colours)
  if #colours == 0 then
    return "nobody"
  end
  if #colours == 1 then
    return colours[1]
  end
  return table.concat(colours, ", ", 1, #colours - 1) .. " and " .. colours[#colours]
end

-- The entry of `list` whose `id` is `id`, or nil.
function SafariTable.find(list, id)
  for _, entry in ipairs(list or {}) do
    if entry.id == id then
      return entry
    end
  end
  return nil
end

-- Says `message` in the chat from `object`, as a warning.
function SafariTable.warn(object, message)
  broadcastToAll(tostring(object.getName()) .. ": " .. message, { 1, 0.35, 0.3 })
end

-- Makes this script a block of one button (`button`: its heading, label and tooltip) that
-- calls `click(wiring, ruleset)` once the ruleset is read: its `onLoad`, and its `onSave`,
-- which keeps the wiring as it was saved.
function SafariTable.one_button_block(button, click)
  local wiring, ruleset = {}, nil
  local handlers = SafariTable.handlers("block_click_")
  function onLoad(script_state)
    wiring = SafariTable.decode_object(script_state) or {}
    SafariTable.when_found(function()
      return SafariTable.ruleset_of(wiring)
    end, function(read)
      ruleset = read
      SafariTable.one_button(self, handlers, button.heading, button.label, button.tooltip, function()
        click(wiring, ruleset)
      end)
    end, function(why)
      SafariTable.warn(self, why)
    end)
  end
  function onSave()
    return JSON.encode(wiring)
  end
end
