-- The setup object of a table safari built: it asks how many play, and sets the table for
-- that many. The save is laid out for one number of players; for each other number, this
-- object's saved state lists the objects to take away (by GUID), the objects to move (by
-- GUID, to a place and a turn) and the objects to put out (as the game saves them). For every
-- number, it lists the decks to shuffle and deal: so many cards into each seat's hand, then a
-- card to each place of a grid. Once chosen, it leaves the table, so that a saved game does
-- not ask again.

local state = { counts = {}, layouts = {}, laid_out = 0 }
local raw = ""

local handlers = SafariTable.handlers("setup_click_")

-- A deck (or, once a deck is down to one card, that card) by its saved GUID: among what this
-- setup put out, else on the table.
local function find(guid, spawned)
  return spawned[guid] or getObjectFromGUID(guid)
end

-- Shuffles the deck and deals it: `each` cards to every colour's hand, then a card to each
-- cell, turned as the cell says.
local function deal(spec, deck)
  deck.shuffle()
  for _, colour in ipairs(spec.colours or {}) do
    if (spec.each or 0) > 0 then
      deck.deal(spec.each, colour)
    end
  end
  -- Dealing the hands may have left one card: the deck's remainder.
  local source = deck.remainder or deck
  for _, cell in ipairs(spec.cells or {}) do
    if source == nil then
      break
    end
    if source.type == "Card" then
      source.setPosition(cell.position)
      source.setRotation(cell.rotation)
      source = nil
    else
      source.takeObject({ position = cell.position, rotation = cell.rotation, smooth = false })
      source = source.remainder or source
    end
  end
end

-- Deals every deck of `deals`, then calls `done` (this object's waits end with it, so it
-- leaves the table only once every deck is dealt).
local function deal_all(deals, spawned, done)
  local left = 1
  local function one_done()
    left = left - 1
    if left == 0 then
      done()
    end
  end
  for _, spec in ipairs(deals or {}) do
    local deck = find(spec.deck, spawned)
    if deck == nil then
      broadcastToAll(tostring(self.getName()) .. ": a deck to deal is not on the table; deal it by hand.", { 1, 0.35, 0.3 })
    else
      left = left + 1
      -- What this setup put out must finish spawning before it can be dealt from.
      Wait.condition(function()
        deal(spec, deck)
        one_done()
      end, function()
        return not deck.spawning
      end)
    end
  end
  one_done()
end

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
  local spawned = {}
  for _, data in ipairs(layout.spawn or {}) do
    spawned[data.GUID or ""] = spawnObjectData({ data = data })
  end
  self.clearButtons()
  deal_all(layout.deal, spawned, function()
    broadcastToAll(tostring(self.getName()) .. ": the table is set for " .. players .. " player" .. (players == 1 and "" or "s") .. ".", { 0.6, 0.9, 0.6 })
    self.destruct()
  end)
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
