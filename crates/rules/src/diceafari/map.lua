-- DiceAFARI's map on the table: a button per Map Card; the one clicked lays the Safari Tiles
-- out in its shape, shuffled, and a Photo Token face down on each space between two tiles
-- side by side (the rulebook's setup). The shapes come from the ruleset the rules object
-- carries (`rules.map_layouts`), the tiles and tokens from their bags (this object's saved
-- state names them, and the ruleset format it reads). Once the map is laid, the object leaves the table.

local wiring = {}
local raw = ""
-- The map reads upright from White's side of the table (docs/tabletop-simulator.md): its
-- first row furthest from White.
local UPRIGHT = 180
local ruleset = nil

local function read_ruleset()
  local decoded, why = SafariTable.ruleset_of(wiring)
  if decoded == nil then
    return nil, why
  end
  if type(decoded.rules) ~= "table" or type(decoded.rules.map_layouts) ~= "table" then
    return nil, "the ruleset has no map shapes. Build the save again with `safari build`."
  end
  return decoded, nil
end

-- The set's bag (or a stacked piece of it, when it is kept in stacks).
local function source_of(set)
  local named = wiring.sets and wiring.sets[set]
  if type(named) == "string" then
    return getObjectFromGUID(named)
  end
  return nil
end

local function count_in(bag)
  local ok, objects = pcall(bag.getObjects)
  if ok and type(objects) == "table" then
    return #objects
  end
  return 0
end

local function lay_out(map)
  local rules = ruleset.rules
  local tiles = SafariTable.find(ruleset.tiles, rules.tiles)
  local photos = SafariTable.find(ruleset.tokens, rules.photos)
  local tile_bag, photo_bag = source_of(rules.tiles), source_of(rules.photos)
  if tiles == nil or photos == nil or tile_bag == nil or photo_bag == nil then
    SafariTable.warn(self, "the Safari Tiles' or the Photo Tokens' bag is not on the table: put them back, and click again.")
    return
  end
  if count_in(tile_bag) < #map.tiles or count_in(photo_bag) < #map.photo_spaces then
    SafariTable.warn(self, "the map takes " .. #map.tiles .. " tiles and " .. #map.photo_spaces .. " Photo Tokens, and the bags hold " .. count_in(tile_bag) .. " and " .. count_in(photo_bag) .. ": put every piece back in its bag, and click again.")
    return
  end
  local step = tiles.size_mm / (wiring.mm_per_unit or 25.4) * 1.04
  local columns, rows = 0, 0
  for _, at in ipairs(map.tiles) do
    columns = math.max(columns, at[1] + 1)
    rows = math.max(rows, at[2] + 1)
  end
  local origin = wiring.origin or { 0, 0 }
  local function place(x, y, lift)
    return {
      origin[1] + (x - (columns - 1) / 2) * step,
      1.5 + lift,
      origin[2] - (y - (rows - 1) / 2) * step,
    }
  end
  tile_bag.shuffle()
  photo_bag.shuffle()
  for _, at in ipairs(map.tiles) do
    tile_bag.takeObject({ position = place(at[1], at[2], 0), rotation = { 0, UPRIGHT, 0 }, smooth = false })
  end
  for _, space in ipairs(map.photo_spaces) do
    local a, b = space[1], space[2]
    photo_bag.takeObject({
      position = place((a[1] + b[1]) / 2, (a[2] + b[2]) / 2, 0.3),
      rotation = { 0, UPRIGHT, 180 },
      smooth = false,
    })
  end
  broadcastToAll(tostring(self.getName()) .. ": laid out the " .. map.title .. " map, " .. #map.tiles .. " tiles and " .. #map.photo_spaces .. " Photo Tokens.", { 0.6, 0.9, 0.6 })
  self.destruct()
end

local handlers = SafariTable.handlers("map_click_")

local function render(maps)
  self.clearButtons()
  handlers.reset()
  SafariTable.heading(self, handlers, "Lay out the map:", 160)
  for n, map in ipairs(maps) do
    self.createButton({
      click_function = handlers.add(function()
        lay_out(map)
      end),
      function_owner = self,
      label = map.title,
      position = { 0, 0.6, (n - 1) * 0.7 },
      width = 1400,
      height = 300,
      font_size = 180,
      tooltip = #map.tiles .. " tiles, " .. #map.photo_spaces .. " Photo Tokens",
    })
  end
end

function onLoad(script_state)
  raw = script_state or ""
  wiring = SafariTable.decode_object(raw) or {}
  SafariTable.when_found(read_ruleset, function(read)
    ruleset = read
    local deck = SafariTable.find(ruleset.decks, ruleset.rules.maps)
    local maps = {}
    for _, layout in ipairs(ruleset.rules.map_layouts) do
      local card = deck and SafariTable.find(deck.cards, layout.card)
      table.insert(maps, {
        title = card and card.title or tostring(layout.card),
        tiles = layout.tiles or {},
        photo_spaces = layout.photo_spaces or {},
      })
    end
    render(maps)
  end, function(why)
    SafariTable.warn(self, why)
  end)
end

function onSave()
  return raw
end
