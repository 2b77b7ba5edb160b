-- One seat's Field Guide on the table: a mark over every box at its printed place, the score,
-- the turn's dice, cards and throws at buttons, every box the rules forbid refused with the
-- reason. The rules are SafariRules (above, from field_guide_rules.lua), read from the
-- ruleset the rules object carries; this part only shows the game and takes the clicks.
--
-- The saved state is the table's wiring (which objects are the rules, the deck and the dice,
-- whose sheet this is) and every answer the game was given, in order: loading replays them,
-- so the marks survive a save, a load and a rewind, and nothing is drawn or rolled again.

local wiring = {}
local inputs = {}
-- Answers an earlier load could not replay (another ruleset): kept in the save, never lost.
local unplayable = nil
local rules = nil
local game = nil
local replaying = false
-- The dice marked for a re-roll, and the cards this turn has drawn, by card id.
local marked = {}
local on_table = {}
local problem = nil

local GOLD = { 1, 0.8, 0.15, 0.55 }
local CLEAR = { 0, 0, 0, 0 }
local INK = { 0.1, 0.1, 0.35 }

local function say(message)
  printToAll(tostring(self.getName()) .. ": " .. message, { 0.9, 0.9, 0.9 })
end

local function warn(message)
  broadcastToAll(tostring(self.getName()) .. ": " .. message, { 1, 0.35, 0.3 })
end

------------------------------------------------------------------------------------------
-- Where things are on the tile. Box places come from the ruleset in mm from the page's top
-- left; the tile's extent is measured, since the game sizes a tile from its image.

local half_width, half_depth = 0.7071, 1
-- A button's position is in the button frame (docs/tabletop-simulator.md): +x toward the
-- image's right, -z toward its top; `positionToWorld` takes the object's local frame, whose
-- x runs the other way.
local LIFT = 0.11
-- Buttons are drawn at a quarter size and made four times larger, so that a small box's
-- button is above the game's smallest width.
local BUTTON_SCALE = 0.25
local UNITS_PER_LOCAL = 500 / BUTTON_SCALE

local function measure()
  half_width, half_depth = SafariTable.half_extent(self, half_width, half_depth)
end

-- The tile's local point at (x, y) mm of the printed page.
local function at_mm(x, y)
  local page = rules.sheet
  local u, v = x / page.width_mm - 0.5, y / page.height_mm - 0.5
  return { u * 2 * half_width, LIFT, v * 2 * half_depth }
end

-- The table's point under a point of the button frame.
local function world_at(p)
  return self.positionToWorld({ -p[1], p[2], p[3] })
end

local function size_mm(width, height)
  local page = rules.sheet
  return width / page.width_mm * 2 * half_width * UNITS_PER_LOCAL, height / page.height_mm * 2 * half_depth * UNITS_PER_LOCAL
end

-- Below the printed page, the n-th row of controls (from 0), at `column` of 4 across.
local function control_at(row, column, columns)
  local across = (column - 0.5) / columns - 0.5
  return { across * 2 * half_width, LIFT, half_depth + 0.18 + row * 0.3 }
end

-- A label that fits `width` (local units) on one line, or on two broken at a space, in the
-- largest letters up to `largest` (a line's height, local units) that fit: labels are not
-- wrapped or shrunk by the game. A letter is taken as 0.55 of its height wide on average.
local LETTER = 0.55
local function fitted(label, width, largest)
  local one = math.min(largest, width / (LETTER * math.max(1, #label)))
  if one >= largest * 0.75 then
    return label, one
  end
  local best, at = nil, nil
  for position in string.gmatch(label, "() ") do
    local longest = math.max(position - 1, #label - position)
    if best == nil or longest < best then
      best, at = longest, position
    end
  end
  if at == nil then
    return label, one
  end
  local two = math.min(largest * 0.6, width / (LETTER * best))
  if two <= one then
    return label, one
  end
  return string.sub(label, 1, at - 1) .. "\n" .. string.sub(label, at + 1), two
end

------------------------------------------------------------------------------------------
-- Names a person reads.

local function box_name(b)
  local box = rules.boxes[b]
  local track = rules.tracks[box.track]
  if box.label ~= nil then
    return box.label
  end
  if box.cause == "collect" then
    local names = {}
    for _, id in ipairs(box.fill.species or {}) do
      local s = rules.species_index[id]
      table.insert(names, s and rules.species[s].name or id)
    end
    return (track.title or "") .. ": " .. table.concat(names, " / ")
  end
  if #track.boxes > 1 then
    for n, other in ipairs(track.boxes) do
      if other == b then
        return (track.title or track.id) .. ", box " .. n
      end
    end
  end
  return track.title or box.id
end

local function item_name(i)
  return rules.items[i].name
end

local function species_name(s)
  return rules.species[s].name
end

local function card_name(c)
  local card = rules.cards[c]
  return species_name(card.species)
end

local function need_words(need)
  local kind, value = need[1], need[2]
  if kind == "item" then
    return "the " .. item_name(value)
  elseif kind == "species" then
    return species_name(value) .. " collected"
  elseif kind == "box" then
    return "\"" .. box_name(value) .. "\" filled"
  elseif kind == "vp" then
    return value .. " VP (you have " .. game.vp .. ")"
  end
  return "an area with no boxes"
end

local CAUSES = {
  dice = function(box)
    return "a " .. box.face .. " face fills it"
  end,
  turn = function()
    return "it fills itself as each turn begins"
  end,
  ball = function()
    return "it fills itself with each Safari Ball thrown"
  end,
  collect = function(box)
    local names = {}
    for _, id in ipairs(box.fill.species or {}) do
      for _, s in ipairs(rules.species) do
        if s.id == id then
          table.insert(names, s.name)
        end
      end
    end
    return "collecting " .. table.concat(names, " or ") .. " fills it"
  end,
  obtain = function()
    return "obtaining its item fills it"
  end,
  use = function(box)
    return "using the " .. item_name(box.used_item) .. " (a Trainer face) fills it"
  end,
  free = function()
    return "it fills itself once the boxes before it are filled"
  end,
  bonus = function()
    return "only a bonus box lets you fill it"
  end,
}

-- Why box `b` cannot be filled by a click now.
local function why_not(b)
  local box = rules.boxes[b]
  if game.filled[b] then
    return "\"" .. box_name(b) .. "\" is already filled."
  end
  if box.previous ~= nil and not game.filled[box.previous] then
    return "Boxes of a track fill in order: fill \"" .. box_name(box.previous) .. "\" first."
  end
  local missing = {}
  for _, need in ipairs(box.needs) do
    if not game:meets(need) then
      table.insert(missing, need_words(need))
    end
  end
  if #missing > 0 then
    return "\"" .. box_name(b) .. "\" needs " .. table.concat(missing, " and ") .. "."
  end
  local request = game.request
  if request and request.kind == "decide" and request.decision == "track" and box.face and box.face ~= request.face then
    return "\"" .. box_name(b) .. "\": a " .. box.face .. " face fills it, and you are placing a " .. request.face .. " face."
  end
  local cause = (CAUSES[box.cause] or CAUSES.bonus)(box)
  return "\"" .. box_name(b) .. "\" cannot be filled by a click now: " .. cause .. "."
end

------------------------------------------------------------------------------------------
-- The game, driven: the table answers what it can (dice, cards), the player the rest.

local function record(value)
  table.insert(inputs, { v = value })
end

local function die_objects(set)
  return wiring.dice and wiring.dice[set] or {}
end

local function capitalised(face)
  return string.upper(string.sub(face, 1, 1)) .. string.sub(face, 2)
end

-- Shows a rolled face on the table's die, when the die is there.
local function show_die(set, i, face)
  local guid = die_objects(set)[i]
  local die = guid and getObjectFromGUID(guid)
  if die ~= nil then
    local value = type(face) == "string" and capitalised(face) or tostring(face)
    pcall(die.setRotationValue, value)
  end
end

-- The Encounter Deck: by its GUID, else whatever deck (or last card) lies where it was laid,
-- such as the discard pile shuffled and put there.
local function find_deck()
  local deck = wiring.deck and getObjectFromGUID(wiring.deck)
  if deck ~= nil then
    return deck
  end
  local at = wiring.deck_at
  for _, object in ipairs(getObjects()) do
    if object.type == "Deck" or object.type == "Card" then
      local p = object.getPosition()
      if at ~= nil and math.abs(p.x - at[1]) < 1.5 and math.abs(p.z - at[3]) < 1.5 then
        wiring.deck = object.getGUID()
        return object
      end
    end
  end
  return nil
end

local function card_id_of(object)
  local card = SafariTable.decode_object(object.memo)
  return card and card.id
end

-- A card is 2.2 units wide on the table (docs/tabletop-simulator.md): the cards drawn lie a
-- row of them this far apart, centred below the sheet's controls, clear of each other however
-- many are drawn.
local CARD_PITCH = 2.5
local function card_spot(n, count)
  local scale = self.getScale()
  local across = (n - (count + 1) / 2) * CARD_PITCH / math.max(scale.x, 1e-6)
  local row = control_at(4, 1, 1)
  return world_at({ across, row[2], row[3] })
end

-- Takes `count` cards from the Encounter Deck, face up in front of the sheet.
local function draw_cards(count)
  local ids = {}
  local deck = find_deck()
  -- The deck is saved in card order: each sheet shuffles it before its first draw.
  if deck ~= nil and deck.type == "Deck" and not wiring.shuffled then
    deck.shuffle()
    wiring.shuffled = true
  end
  for n = 1, count do
    if deck == nil then
      warn("the Encounter Deck is out of cards: shuffle the discard pile and put it where the deck was; the cards you could not draw are not drawn this turn.")
      break
    end
    local spot = card_spot(n, count)
    local remainder = deck.type == "Card"
    local card = remainder and deck or deck.takeObject({ position = spot, flip = true, smooth = true })
    if remainder then
      card.setPositionSmooth(spot, false, true)
      card.setRotation({ 0, self.getRotation().y, 0 })
      deck = nil
    elseif deck.remainder ~= nil then
      deck = deck.remainder
    end
    local id = card and card_id_of(card)
    if id ~= nil then
      table.insert(ids, id)
      on_table[id] = on_table[id] or {}
      table.insert(on_table[id], card)
    end
  end
  return ids
end

local function move_card(id, where)
  local cards = on_table[id]
  local card = cards and table.remove(cards)
  if card ~= nil and where ~= nil then
    card.setPositionSmooth(where, false, true)
  end
end

-- Automatic answers: a die rolled, cards drawn, whether the discard pile is empty (the table
-- cannot tell: the Poké Flute is offered whenever held).
local function automatic(request)
  if request.kind == "die" then
    local face = request.faces[math.random(#request.faces)]
    show_die(request.set, request.die, face)
    return true, face
  elseif request.kind == "draw" then
    return true, draw_cards(request.count)
  elseif request.kind == "discard_empty" then
    return true, false
  end
  return false, nil
end

-- Where this sheet's game stands, for the other sheets (`obj.call("safariStanding")`): its
-- colour, whether it is over, its VP and unique species.
function safariStanding()
  if game == nil then
    return nil
  end
  return { colour = wiring.colour, over = game.request == nil, vp = game.vp, species = game.unique_species }
end

-- Once every Field Guide on the table is out, the winner: the most VP, ties broken by the
-- most unique species (the Park Rules); a tie on both is shared.
local function announce_the_winner()
  local standings = {}
  for _, object in ipairs(getObjects()) do
    local ok_name, name = pcall(object.getName)
    if ok_name and type(name) == "string" and string.sub(name, 1, 11) == "Field Guide" then
      local ok, standing = pcall(object.call, "safariStanding")
      if not ok or type(standing) ~= "table" or not standing.over then
        return
      end
      table.insert(standings, standing)
    end
  end
  if #standings < 2 then
    return
  end
  local best = nil
  for _, s in ipairs(standings) do
    if best == nil or s.vp > best.vp or (s.vp == best.vp and s.species > best.species) then
      best = s
    end
  end
  local winners = {}
  for _, s in ipairs(standings) do
    if s.vp == best.vp and s.species == best.species then
      table.insert(winners, tostring(s.colour))
    end
  end
  local line = "every Field Guide is out: " .. table.concat(winners, " and ") .. (#winners == 1 and " wins" or " share the win") .. " with " .. best.vp .. " VP and " .. best.species .. " species."
  broadcastToAll(line, { 0.6, 0.9, 0.6 })
end

-- What the events since `from` did on the table: cards moved, and a line in the chat.
local met = nil
local function follow(from)
  local lines = {}
  for n = from + 1, #game.events do
    local event = game.events[n]
    local kind = event.event
    if kind == "roll" then
      local faces = {}
      for i, face in ipairs(event.faces) do
        faces[i] = capitalised(face)
      end
      table.insert(lines, "rolled " .. table.concat(faces, ", "))
    elseif kind == "bust" then
      table.insert(lines, "too many Hazards: the turn ends")
    elseif kind == "fill" and event.vp > 0 then
      table.insert(lines, "filled \"" .. box_name(rules.box_index[event.box]) .. "\" (+" .. event.vp .. " VP)")
    elseif kind == "throw" then
      local dice = {}
      for i, value in ipairs(event.dice) do
        dice[i] = tostring(value)
      end
      table.insert(lines, "threw: " .. table.concat(dice, " + ") .. " = " .. event.total .. " against " .. event.needed .. (event.caught and ", caught!" or ", missed"))
    elseif kind == "collect" then
      table.insert(lines, "collected " .. species_name(rules.species_index[event.species]))
    elseif kind == "use" then
      local on = ""
      if event.species ~= nil then
        on = " on " .. species_name(rules.species_index[event.species])
      elseif event.keeps ~= nil then
        on = ": capture die " .. (event.keeps.die + 1) .. " keeps its " .. event.keeps.value
      end
      table.insert(lines, "used the " .. item_name(rules.item_index[event.item]) .. on)
    elseif kind == "reshuffle" then
      table.insert(lines, "shuffle the discard pile into the Encounter Deck")
    elseif kind == "discard" then
      for _, id in ipairs(event.cards) do
        move_card(id, wiring.discard)
      end
    elseif kind == "out" then
      table.insert(lines, "is out (" .. (event.reason == "balls" and "no Safari Balls left" or "no turns left") .. ") with " .. game.vp .. " VP and " .. game.unique_species .. " species")
    end
    if kind == "encounter" then
      met = event.card
    elseif kind == "throw" and event.caught and met ~= nil then
      -- A card caught stays with its catcher.
      move_card(met, world_at(control_at(6, 1, 1)))
      met = nil
    end
  end
  if #lines > 0 and not replaying then
    say(table.concat(lines, "; "))
  end
  for n = from + 1, #game.events do
    if game.events[n].event == "out" and not replaying then
      announce_the_winner()
    end
  end
end

local render
local start_sheet
local click_box
local rebuild
local owner_allows

-- Answers every automatic request, and follows the events since `from` on the table. What
-- the table does (dice shown, cards taken and moved) must not stop the game: when it fails
-- (an object a player moved away, or merged into a pile), the sheet says so and offers to go
-- on from the request it stopped at.
local function run_table(from)
  local ok, why = pcall(function()
    while game.request ~= nil do
      local automatic_answer, answer = automatic(game.request)
      if not automatic_answer then
        break
      end
      record(answer)
      game:answer(answer)
    end
    follow(from)
  end)
  if not ok then
    warn("the table could not follow (" .. tostring(why) .. "): click Go on under the sheet.")
  end
end

local function resume(_, colour)
  if game ~= nil and owner_allows(colour) then
    run_table(#game.events)
    render()
  end
end

-- Answers the waiting request with `value` (the player's), then every automatic request.
local function advance(value)
  if not game:offers(value) then
    render()
    return
  end
  local from = #game.events
  record(value)
  game:answer(value)
  run_table(from)
  if game.broken then
    warn("the rules stopped: " .. game.broken)
  end
  marked = {}
  render()
end

------------------------------------------------------------------------------------------
-- Loading: the rules from the rules object, then the answers replayed.

local function read_rules()
  local holder = SafariTable.rules_object(wiring)
  if holder == nil then
    return nil, "the table has no rules object. Load the save safari built again."
  end
  local decoded, unread = SafariTable.read_ruleset(holder.script_state, SafariRules.FORMAT, "format_version", SafariRules.FORMAT_VERSION)
  if decoded == nil then
    return nil, unread
  end
  local compiled, why = SafariRules.compile(decoded)
  if compiled == nil then
    return nil, why .. ". Build the save again with `safari build` and load the new save."
  end
  if type(decoded.sheet) ~= "table" then
    return nil, "the ruleset does not say where the Field Guide's boxes are printed. Build it again with `safari build`."
  end
  compiled.sheet = decoded.sheet
  compiled.places = {}
  for _, place in ipairs(decoded.sheet.boxes or {}) do
    compiled.places[place.id] = place
  end
  compiled.species_index, compiled.item_index = {}, {}
  for s, entry in ipairs(compiled.species) do
    compiled.species_index[entry.id] = s
  end
  for i, entry in ipairs(compiled.items) do
    compiled.item_index[entry.id] = i
  end
  return compiled, nil
end

-- The game the saved answers make, up to the first one the rules cannot take.
local function replay_answers(saved)
  local played = SafariRules.start(rules)
  local taken = {}
  for _, input in ipairs(saved) do
    if played.request == nil or played.broken then
      break
    end
    played:answer(type(input) == "table" and input.v or nil)
    if played.broken then
      break
    end
    table.insert(taken, input)
  end
  return played, taken
end

local function replay(saved)
  replaying = true
  game, inputs = replay_answers(saved)
  if game.broken then
    -- Played again without the answer that broke it.
    game, inputs = replay_answers(inputs)
  end
  replaying = false
  if #inputs < #saved then
    local rest = {}
    for n = #inputs + 1, #saved do
      table.insert(rest, saved[n])
    end
    unplayable = { kept = unplayable, answers = rest }
    warn("the last " .. #rest .. " answers saved on this sheet do not fit the rules the table carries now: the sheet goes on from before them, and they stay in its save.")
  end
  -- The last answers may have been automatic ones the save did not reach.
  while game.request ~= nil do
    local automatic_answer, answer = automatic(game.request)
    if not automatic_answer then
      break
    end
    record(answer)
    game:answer(answer)
  end
end

function onLoad(script_state)
  local state = SafariTable.decode_object(script_state) or {}
  wiring = state.table or {}
  unplayable = state.unplayable
  math.randomseed(os.time() + (tonumber(tostring(self.getGUID()), 16) or 0))
  measure()
  start_sheet(state)
  -- The tile takes its size from its image: measured again once the image has loaded.
  if Wait ~= nil then
    Wait.condition(function()
      measure()
      rebuild()
    end, function()
      return not self.loading_custom
    end)
  end
end

-- The card objects this sheet's turns drew and still has in play, by card id (GUIDs), and the
-- card met: saved so that a load or a rewind mid-encounter still moves them.
local function cards_in_play()
  local saved = {}
  for id, cards in pairs(on_table) do
    local guids = {}
    for _, card in ipairs(cards) do
      local ok, guid = pcall(card.getGUID)
      if ok and type(guid) == "string" then
        table.insert(guids, guid)
      end
    end
    if #guids > 0 then
      saved[tostring(id)] = guids
    end
  end
  return saved
end

local function restore_cards(state)
  if type(state.cards) == "table" then
    for id, guids in pairs(state.cards) do
      on_table[id] = {}
      for _, guid in ipairs(type(guids) == "table" and guids or {}) do
        local card = getObjectFromGUID(guid)
        if card ~= nil then
          table.insert(on_table[id], card)
        end
      end
    end
  end
  met = state.met
end

-- Starts the sheet once the rules object is on the table (`SafariTable.when_found`).
start_sheet = function(state)
  SafariTable.when_found(read_rules, function(read)
    rules = read
    replay(state.inputs or {})
    restore_cards(state)
    render()
  end, function(why)
    problem = why
    warn(why)
    render()
  end)
end

function onSave()
  return JSON.encode({ table = wiring, inputs = inputs, unplayable = unplayable, cards = cards_in_play(), met = met })
end

------------------------------------------------------------------------------------------
-- The buttons.

owner_allows = function(colour)
  local owner = wiring.colour
  if owner == nil or colour == owner then
    return true
  end
  local seated = Player[owner] and Player[owner].seated
  if seated then
    broadcastToColor("This is " .. owner .. "'s Field Guide.", colour, { 1, 0.6, 0.3 })
    return false
  end
  return true
end

click_box = function(b, colour)
  if game == nil or not owner_allows(colour) then
    return
  end
  local request = game.request
  if request ~= nil and request.kind == "decide" then
    for _, choice in ipairs(request.choices or {}) do
      if (choice[1] == "track" and game.next[choice[2]] == b) or (choice[1] == "box" and choice[2] == b) then
        advance(choice)
        return
      end
    end
  end
  broadcastToColor(why_not(b), colour, { 1, 0.6, 0.3 })
end

local function answer_with(choice)
  return function(_, colour)
    if game ~= nil and game.request ~= nil and owner_allows(colour) then
      advance(choice)
    end
  end
end

local function toggle_die(i)
  return function(_, colour)
    if game == nil or not owner_allows(colour) then
      return
    end
    local request = game.request
    if request and request.decision == "reroll" then
      if request.free[i] or request.hazard == i then
        marked[i] = not marked[i]
        render()
      else
        broadcastToColor("A die showing a Hazard stays" .. (#rules.steps.reroll_hazard > 0 and " (unless you hold the " .. item_name(rules.steps.reroll_hazard[1]) .. ", for one of them)" or "") .. ".", colour, { 1, 0.6, 0.3 })
      end
    end
  end
end

local function reroll_marked(_, colour)
  if game == nil or not owner_allows(colour) then
    return
  end
  local dice, any = {}, false
  for i = 1, #rules.expedition do
    dice[i] = marked[i] == true
    any = any or dice[i]
  end
  if not any then
    broadcastToColor("Click the dice to re-roll first.", colour, { 1, 0.6, 0.3 })
    return
  end
  advance({ "reroll", dice })
end

-- The box buttons are made once, each calling its box's function, and edited when their
-- mark changes; the controls below the sheet are made again at each change, after them.
local box_buttons = nil
local box_count = 0
local shown = {}
local controls = 0

local handlers = SafariTable.handlers("safari_control_")

local function button(spec)
  spec.function_owner = self
  spec.scale = spec.scale or { BUTTON_SCALE, 1, BUTTON_SCALE }
  self.createButton(spec)
  controls = controls + 1
end

local function control(row, column, columns, label, fn, tooltip, colour)
  local width = 2 * half_width / columns * 0.95
  local shown, font = fitted(label, width * 0.92, 0.13)
  button({
    click_function = handlers.add(fn),
    label = shown,
    position = control_at(row, column, columns),
    width = width * UNITS_PER_LOCAL,
    height = 0.26 * UNITS_PER_LOCAL,
    font_size = font * UNITS_PER_LOCAL,
    color = colour or { 1, 1, 1, 0.95 },
    tooltip = tooltip or "",
  })
end

local function text(row, label)
  local shown, font = fitted(label, 2 * half_width * 0.98, 0.12)
  button({
    click_function = handlers.add(function() end),
    label = shown,
    position = control_at(row, 1, 1),
    width = 0,
    height = 0,
    font_size = font * UNITS_PER_LOCAL,
    font_color = { 1, 1, 1 },
  })
end

-- Makes every box's button, at its printed place (again after the tile is measured).
local function make_box_buttons()
  self.clearButtons()
  box_buttons, shown, controls, box_count = {}, {}, 0, 0
  local made = 0
  for b, box in ipairs(rules.boxes) do
    local place = rules.places[box.id]
    if place ~= nil then
      local width, height = size_mm(place.width, place.height)
      local name = "safari_box_" .. b
      _G[name] = function(_, colour)
        click_box(b, colour)
      end
      self.createButton({
        click_function = name,
        function_owner = self,
        label = "",
        position = at_mm(place.x + place.width / 2, place.y + place.height / 2),
        scale = { BUTTON_SCALE, 1, BUTTON_SCALE },
        width = width,
        height = height,
        font_size = math.min(width, height) * 0.9,
        color = CLEAR,
        hover_color = { 0.2, 0.4, 1, 0.25 },
        press_color = { 0.2, 0.4, 1, 0.45 },
        font_color = INK,
        tooltip = box_name(b),
      })
      box_buttons[b] = made
      shown[b] = ""
      made = made + 1
    end
  end
  box_count = made
end

rebuild = function()
  box_buttons = nil
  render()
end

-- What the sheet asks of its player now.
-- The waiting decision's choices of one kind (`"card"`, `"use"`, `"lock"`).
local function choices_of(request, kind)
  local found = {}
  for _, choice in ipairs(request.choices) do
    if choice[1] == kind then
      table.insert(found, choice)
    end
  end
  return found
end

-- A row of buttons: one per choice of `kind`, labelled by `label`, then `stop`'s.
local function choice_row(request, kind, label, stop)
  local chosen = choices_of(request, kind)
  for n, choice in ipairs(chosen) do
    control(2, n, #chosen + 1, label(choice), answer_with(choice))
  end
  control(2, #chosen + 1, #chosen + 1, stop, answer_with({ "stop" }))
end

local function prompt()
  if game.broken then
    return "The rules stopped: " .. game.broken
  end
  local request = game.request
  if request == nil then
    return "Out: " .. game.vp .. " VP, " .. game.unique_species .. " species."
  end
  if request.kind == "begin" then
    return "Your turn? Roll the Expedition Dice."
  end
  if request.kind ~= "decide" then
    return "The table could not follow (see the chat): Go on tries again."
  end
  local decision = request.decision
  if decision == "reroll" then
    local hazards = 0
    for _, face in ipairs(request.faces) do
      if face == "hazard" then
        hazards = hazards + 1
      end
    end
    return "Click dice to re-roll (" .. request.rolls_left .. " re-roll" .. (request.rolls_left == 1 and "" or "s") .. " left; " .. hazards .. " of the " .. rules.hazard_limit .. " Hazards that end the turn), or keep these."
  elseif decision == "track" then
    return "Place a " .. capitalised(request.face) .. " face: click the next box of a gold track."
  elseif decision == "bonus" then
    return "Bonus: click a gold box to fill it."
  elseif decision == "use" then
    return "Spend a Trainer face on an item (" .. request.trainers .. " left" .. (request.after and ", after the encounter" or "") .. "), or go on."
  elseif decision == "repel" then
    return "Repel a species among the cards drawn (a Trainer face: " .. request.trainers .. " left), or keep them."
  elseif decision == "card" then
    return "Choose the card to encounter, or let them go."
  elseif decision == "throw" then
    local doll = #choices_of(request, "lock") > 0 and ", keep a die with the Poké Doll" or ""
    return "Missed. Throw another Safari Ball (catch on " .. request.rate .. "+)" .. doll .. ", or let it go."
  end
  return ""
end

render = function()
  -- The controls of the last render go; the box buttons stay.
  if box_buttons ~= nil then
    for i = box_count + controls - 1, box_count, -1 do
      self.removeButton(i)
    end
  else
    self.clearButtons()
  end
  controls = 0
  handlers.reset()
  if rules == nil or game == nil then
    text(0, problem or "")
    return
  end
  if box_buttons == nil then
    make_box_buttons()
  end
  local request = game.request or {}
  local gold = {}
  for _, choice in ipairs(request.choices or {}) do
    if choice[1] == "track" and game.next[choice[2]] then
      gold[game.next[choice[2]]] = true
    elseif choice[1] == "box" then
      gold[choice[2]] = true
    end
  end
  for b, index in pairs(box_buttons) do
    local look = (game.filled[b] and "X" or "") .. (gold[b] and "gold" or "")
    if shown[b] ~= look then
      shown[b] = look
      self.editButton({ index = index, label = game.filled[b] and "X" or "", color = gold[b] and GOLD or CLEAR })
    end
  end
  text(0, "Turn " .. game.turns_taken .. " of " .. rules.turns .. "  ·  " .. game:balls_left() .. " Safari Balls  ·  " .. game.vp .. " VP  ·  " .. game.unique_species .. " species")
  text(1, prompt())
  if request.kind == "begin" then
    control(2, 1, 1, "Roll the Expedition Dice", answer_with(nil))
  elseif request.kind ~= nil and request.kind ~= "decide" then
    control(2, 1, 1, "Go on", resume)
  elseif request.decision == "reroll" then
    local count = #rules.expedition
    for i, face in ipairs(request.faces) do
      local label = capitalised(face) .. (marked[i] and " ↻" or "")
      control(2, i, count, label, toggle_die(i), "Click to mark for a re-roll", marked[i] and GOLD or nil)
    end
    control(3, 1, 2, "Re-roll marked", reroll_marked)
    control(3, 2, 2, "Keep these", answer_with({ "stop" }))
  elseif request.decision == "use" then
    choice_row(request, "use", function(choice)
      return "Use the " .. item_name(choice[2])
    end, "Go on")
  elseif request.decision == "card" then
    choice_row(request, "card", function(choice)
      local c = request.drawn[choice[2]]
      local rate = math.max(0, rules.cards[c].capture_rate - game:capture_bonus())
      return card_name(c) .. " (" .. rate .. "+)"
    end, "Let them go")
  elseif request.decision == "repel" then
    choice_row(request, "card", function(choice)
      return "Repel " .. species_name(rules.cards[request.drawn[choice[2]]].species)
    end, "Keep them")
  elseif request.decision == "throw" then
    local locks = choices_of(request, "lock")
    control(2, 1, 2, "Throw a Safari Ball", answer_with({ "throw" }))
    control(2, 2, 2, "Let it go", answer_with({ "stop" }))
    for n, choice in ipairs(locks) do
      control(3, n, #locks, "Keep die " .. choice[2] .. " at " .. choice[3] .. ", throw", answer_with(choice))
    end
  end
end
