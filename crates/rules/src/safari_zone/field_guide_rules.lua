-- Safari Zone RNW's rules for one player's Field Guide, read from the ruleset alone.
--
-- This is the second reading of the rules beside the engine (crates/engine/src/game.rs and
-- rules.rs): the same steps in the same order, so that tests can replay the engine's games
-- through it and find the same boxes filled (tests/tts_replay.rs). A turn runs as a coroutine
-- that stops at every request: a die to roll, cards to draw, or a decision for the player.
-- Whoever drives it (the Field Guide's script on the table, or a test) answers each request,
-- and the answers in order are the whole game: replaying them rebuilds the sheet.
--
-- Tabletop Simulator runs MoonSharp, a Lua 5.2: no `load`, `require` or global `unpack`, and
-- `%` and `math.fmod` misbehave there, so none of them is used.

SafariRules = {}
local R = SafariRules

R.FORMAT = "safari-ruleset"
R.FORMAT_VERSION = 3
-- The expedition faces, in the order the engine resolves them.
R.ACTIONS = { "area", "trainer", "item", "grass", "water", "hazard" }
local ACTION = {}
for i, name in ipairs(R.ACTIONS) do
  ACTION[name] = i
end

local function contains(list, value)
  for _, v in ipairs(list) do
    if v == value then
      return true
    end
  end
  return false
end

-- MoonSharp's `error` takes a string only: a ruleset's fault is one marked as such.
local FAULT = "ruleset fault: "
local function fail(message)
  error(FAULT .. message, 0)
end

-- The ruleset's ids, indexed from 1 in their order.
local function index_of(list, what)
  local index = {}
  for i, entry in ipairs(list or {}) do
    if type(entry) ~= "table" or type(entry.id) ~= "string" then
      fail(what .. " " .. i .. " has no id")
    end
    index[entry.id] = i
  end
  return index
end

local function find(index, what, id)
  local i = index[id]
  if i == nil then
    fail("unknown " .. what .. " `" .. tostring(id) .. "`")
  end
  return i
end

local function number(value, what)
  if type(value) ~= "number" or value < 0 or value ~= math.floor(value) then
    fail(what .. " is not a whole number")
  end
  return value
end

-- An item's steps, as the ruleset writes them: a name, or a one-key table with its value.
local function steps_of(item)
  local steps = {}
  for _, effect in ipairs(item.effects or {}) do
    if type(effect) == "string" then
      local name = effect
      if name == "evolve" then
        name = "fill-labelled"
      elseif name == "repel" then
        name = "redraw-species"
      end
      table.insert(steps, { name = name })
    elseif type(effect) == "table" then
      for name, value in pairs(effect) do
        table.insert(steps, { name = name, value = value })
      end
    end
  end
  return steps
end

-- Whether a step can happen for an item of this kind (the engine's `Step::fits`).
local function fits(step, kind)
  local name = step.name
  if name == "reroll-hazard" or name == "extra-roll" or name == "habitat" then
    return kind == "passive"
  elseif name == "capture-bonus" then
    return true
  end
  return kind == "usable"
end

local function compile(rs)
  if type(rs) ~= "table" then
    fail("the ruleset is not an object")
  end
  local params = rs.parameters or fail("no parameters")
  if params.event_fills ~= nil and params.event_fills ~= "one-per-section" and params.event_fills ~= "one-plus-trigger-per-section" then
    fail("parameters.event_fills: unknown `" .. tostring(params.event_fills) .. "`")
  end
  local rules = {
    id = rs.game and rs.game.id,
    name = rs.game and rs.game.name or "the game",
    turns = number(params.turns, "parameters.turns"),
    balls = number(params.safari_balls, "parameters.safari_balls"),
    rolls_per_turn = math.max(1, number(params.rolls_per_turn, "parameters.rolls_per_turn")),
    hazard_limit = math.max(1, number(params.hazard_limit, "parameters.hazard_limit")),
    event_fills = params.event_fills or "one-per-section",
    expedition = {},
    capture = {},
    items = {},
    species = {},
    cards = {},
    card_index = {},
    tracks = {},
    boxes = {},
    box_index = {},
    face_tracks = { {}, {}, {}, {}, {}, {} },
    turn_boxes = {},
    ball_boxes = {},
    collect_boxes = {},
    obtain_boxes = {},
    use_boxes = {},
    usable_items = {},
    free_boxes = {},
    item_opens_free = {},
    species_opens_free = {},
    bonus_tracks = {},
    steps = {
      reroll_hazard = {},
      extra_roll = {},
      habitat = {},
      capture_bonus = {},
      capture_boost = {},
      lock_capture_die = {},
      reshuffle_discard = {},
      redraw_species = {},
    },
  }
  local items = index_of(rs.items, "item")
  local species = index_of(rs.species, "species")
  for i, item in ipairs(rs.items) do
    rules.items[i] = { id = item.id, name = item.name or item.id, kind = item.kind, steps = steps_of(item) }
    rules.obtain_boxes[i] = {}
    rules.use_boxes[i] = {}
    rules.item_opens_free[i] = false
    if item.kind == "usable" then
      table.insert(rules.usable_items, i)
    end
  end
  for s, entry in ipairs(rs.species) do
    rules.species[s] = { id = entry.id, name = entry.name or entry.id }
    rules.collect_boxes[s] = {}
    rules.species_opens_free[s] = false
  end

  for _, set in ipairs(rs.dice or {}) do
    for _, die in ipairs(set.dice or {}) do
      if #die == 0 then
        fail("a die of `" .. tostring(set.id) .. "` has no faces")
      end
      if set.role == "expedition" then
        for _, face in ipairs(die) do
          if ACTION[face] == nil then
            fail("dice set `" .. tostring(set.id) .. "`: `" .. tostring(face) .. "` is not an expedition face")
          end
        end
        table.insert(rules.expedition, die)
      elseif set.role == "capture" then
        for _, face in ipairs(die) do
          number(face, "a capture face of `" .. tostring(set.id) .. "`")
        end
        table.insert(rules.capture, die)
      else
        fail("dice set `" .. tostring(set.id) .. "` has no known role")
      end
    end
  end
  if #rules.expedition == 0 then
    fail("the game has no expedition dice")
  end

  local guide = rs.field_guide or fail("no field_guide")
  -- Boxes by id, and each area's need: its track's first box filled.
  local box_ids, area_needs, count = {}, {}, 0
  for _, section in ipairs(guide.sections or {}) do
    for _, track in ipairs(section.tracks or {}) do
      if #(track.boxes or {}) == 0 then
        area_needs[track.id] = { "never" }
      else
        area_needs[track.id] = { "box", count + 1 }
      end
      for _, b in ipairs(track.boxes or {}) do
        count = count + 1
        box_ids[b.id] = count
      end
    end
  end
  local function area(track)
    return area_needs[track] or fail("unknown track `" .. tostring(track) .. "`")
  end

  for _, card in ipairs(rs.deck and rs.deck.cards or {}) do
    local criteria = card.criteria or {}
    table.insert(rules.cards, {
      id = card.id,
      species = find(species, "species", card.species),
      capture_rate = number(card.capture_rate, "a capture rate"),
      grass = number(criteria.grass or 0, "a card's grass"),
      water = number(criteria.water or 0, "a card's water"),
      area = criteria.area and area(criteria.area) or nil,
      item = criteria.item and find(items, "item", criteria.item) or nil,
    })
    rules.card_index[card.id] = #rules.cards
  end

  for s, section in ipairs(guide.sections or {}) do
    for _, track in ipairs(section.tracks or {}) do
      local t = #rules.tracks + 1
      local list = {}
      for _, b in ipairs(track.boxes or {}) do
        local index = #rules.boxes + 1
        local fill = b.fill or fail("box `" .. tostring(b.id) .. "` has no fill")
        local cause = fill.kind
        if b.style == "free" then
          cause = "free"
        end
        local needs = {}
        for _, r in ipairs(b.requires or {}) do
          if r.kind == "item" then
            table.insert(needs, { "item", find(items, "item", r.item) })
          elseif r.kind == "species" then
            table.insert(needs, { "species", find(species, "species", r.species) })
          elseif r.kind == "area" then
            table.insert(needs, area(r.track))
          elseif r.kind == "box" then
            table.insert(needs, { "box", find(box_ids, "box", r.box) })
          elseif r.kind == "vp" then
            table.insert(needs, { "vp", number(r.at_least, "a VP requirement") })
          else
            fail("box `" .. tostring(b.id) .. "`: unknown requirement `" .. tostring(r.kind) .. "`")
          end
        end
        local gains = {}
        for _, reward in ipairs(b.rewards or {}) do
          if reward.kind == "item" then
            table.insert(gains, { "item", find(items, "item", reward.item) })
          elseif reward.kind == "habitat" then
            table.insert(gains, { "habitat", reward.habitat })
          elseif reward.kind == "species" then
            table.insert(gains, { "species", find(species, "species", reward.species) })
          else
            fail("box `" .. tostring(b.id) .. "`: unknown reward `" .. tostring(reward.kind) .. "`")
          end
        end
        local box = {
          id = b.id,
          label = b.label,
          section = s,
          track = t,
          vp = number(b.vp or 0, "a box's VP"),
          previous = list[#list],
          needs = needs,
          gains = gains,
          style = b.style,
          cause = cause,
          fill = fill,
          bonus_can_fill = b.shape == "square" and cause ~= "collect" and cause ~= "obtain",
          may_open_free = false,
        }
        if cause == "dice" then
          box.face = fill.face
          local f = ACTION[fill.face] or fail("box `" .. tostring(b.id) .. "`: unknown face")
          if not contains(rules.face_tracks[f], t) then
            table.insert(rules.face_tracks[f], t)
          end
        elseif cause == "turn" then
          table.insert(rules.turn_boxes, index)
        elseif cause == "ball" then
          table.insert(rules.ball_boxes, index)
        elseif cause == "collect" then
          for _, id in ipairs(fill.species or {}) do
            table.insert(rules.collect_boxes[find(species, "species", id)], index)
          end
        elseif cause == "obtain" then
          for _, id in ipairs(fill.items or {}) do
            table.insert(rules.obtain_boxes[find(items, "item", id)], index)
          end
        elseif cause == "use" then
          box.used_item = find(items, "item", fill.item)
          table.insert(rules.use_boxes[box.used_item], index)
        elseif cause == "free" then
          table.insert(rules.free_boxes, index)
        elseif cause ~= "bonus" then
          fail("box `" .. tostring(b.id) .. "`: unknown fill `" .. tostring(cause) .. "`")
        end
        if box.previous then
          rules.boxes[box.previous].following = index
        end
        rules.boxes[index] = box
        rules.box_index[b.id] = index
        table.insert(list, index)
      end
      local bonus = false
      for _, b in ipairs(list) do
        bonus = bonus or rules.boxes[b].bonus_can_fill
      end
      if bonus then
        table.insert(rules.bonus_tracks, t)
      end
      rules.tracks[t] = { id = track.id, title = track.title or section.title, section = s, boxes = list }
    end
  end

  for i, item in ipairs(rules.items) do
    for _, step in ipairs(item.steps) do
      if fits(step, item.kind) then
        local n, st = step.name, rules.steps
        if n == "reroll-hazard" then
          table.insert(st.reroll_hazard, i)
        elseif n == "extra-roll" then
          table.insert(st.extra_roll, i)
        elseif n == "habitat" then
          table.insert(st.habitat, { i, step.value })
        elseif n == "capture-bonus" and item.kind == "usable" then
          table.insert(st.capture_boost, { i, number(step.value, "a capture bonus") })
        elseif n == "capture-bonus" then
          table.insert(st.capture_bonus, { i, number(step.value, "a capture bonus") })
        elseif n == "lock-capture-die" then
          table.insert(st.lock_capture_die, i)
        elseif n == "reshuffle-discard" then
          table.insert(st.reshuffle_discard, i)
        elseif n == "redraw-species" then
          table.insert(st.redraw_species, i)
        end
      end
    end
  end
  -- The largest boost first, then the first item.
  table.sort(rules.steps.capture_boost, function(a, b)
    if a[2] ~= b[2] then
      return a[2] > b[2]
    end
    return a[1] < b[1]
  end)

  -- What may open a free box (the engine's `link_free_boxes`).
  local opens, needs_vp = {}, false
  for _, f in ipairs(rules.free_boxes) do
    local box = rules.boxes[f]
    if box.previous then
      opens[box.previous] = true
    end
    for _, need in ipairs(box.needs) do
      if need[1] == "item" then
        rules.item_opens_free[need[2]] = true
      elseif need[1] == "species" then
        rules.species_opens_free[need[2]] = true
      elseif need[1] == "box" then
        opens[need[2]] = true
      elseif need[1] == "vp" then
        needs_vp = true
      end
    end
  end
  for b, box in ipairs(rules.boxes) do
    box.may_open_free = opens[b] == true or (needs_vp and box.vp > 0)
  end
  return rules
end

-- The ruleset's rules ready to play, or nil and why not: a ruleset of another format or
-- version, or one whose ids do not hold together.
function R.compile(rs)
  if type(rs) ~= "table" then
    return nil, "the ruleset is not a JSON object"
  end
  if rs.format ~= R.FORMAT then
    return nil, "the ruleset is of another kind (format " .. tostring(rs.format) .. "), where this script reads " .. R.FORMAT
  end
  if rs.format_version ~= R.FORMAT_VERSION then
    return nil, "the ruleset is of format version " .. tostring(rs.format_version) .. ", and this script reads version " .. R.FORMAT_VERSION
  end
  local ok, result = pcall(compile, rs)
  if ok then
    return result, nil
  end
  local why = tostring(result)
  if string.sub(why, 1, #FAULT) == FAULT then
    why = string.sub(why, #FAULT + 1)
  end
  return nil, "the ruleset does not hold together: " .. why
end

------------------------------------------------------------------------------------------
-- One player's sheet and supplies, and the turn.

local Game = {}
Game.__index = Game

-- A blank sheet of these rules. `ask(request)` answers requests; by default the game runs
-- in a coroutine and each request stops it (see `R.start`).
function R.new(rules)
  local game = setmetatable({
    rules = rules,
    filled = {},
    next = {},
    items = {},
    species = {},
    bonus = { grass = 0, water = 0, any = 0 },
    vp = 0,
    unique_species = 0,
    turns_taken = 0,
    balls_thrown = 0,
    free_pending = true,
    out = nil,
    events = {},
    steps = {},
    -- What the turn in play knows of the table: whether its discard pile is known empty.
    turn = nil,
  }, Game)
  for t, track in ipairs(rules.tracks) do
    game.next[t] = track.boxes[1]
  end
  return game
end

function Game:event(event)
  table.insert(self.events, event)
end

function Game:ask(request)
  return coroutine.yield(request)
end

function Game:meets(need)
  local kind, value = need[1], need[2]
  if kind == "item" then
    return self.items[value] == true
  elseif kind == "species" then
    return self.species[value] == true
  elseif kind == "box" then
    return self.filled[value] == true
  elseif kind == "vp" then
    return self.vp >= value
  end
  return false
end

function Game:meets_needs(b)
  for _, need in ipairs(self.rules.boxes[b].needs) do
    if not self:meets(need) then
      return false
    end
  end
  return true
end

function Game:can_fill(b)
  local box = self.rules.boxes[b]
  return not self.filled[b] and (box.previous == nil or self.filled[box.previous] == true) and self:meets_needs(b)
end

function Game:open_next(t)
  local b = self.next[t]
  if b ~= nil and self:meets_needs(b) then
    return b
  end
  return nil
end

function Game:first_open(list)
  for _, b in ipairs(list) do
    if self:can_fill(b) then
      return b
    end
  end
  return nil
end

function Game:holding(list)
  for _, i in ipairs(list) do
    if self.items[i] then
      return i
    end
  end
  return nil
end

function Game:capture_bonus()
  local sum = 0
  for _, entry in ipairs(self.rules.steps.capture_bonus) do
    if self.items[entry[1]] then
      sum = sum + entry[2]
    end
  end
  return sum
end

function Game:rolls_per_turn()
  local rolls = self.rules.rolls_per_turn
  for _, i in ipairs(self.rules.steps.extra_roll) do
    if self.items[i] then
      rolls = rolls + 1
    end
  end
  return rolls
end

function Game:habitat_bonuses()
  local grass, water, any = self.bonus.grass, self.bonus.water, self.bonus.any
  for _, entry in ipairs(self.rules.steps.habitat) do
    if self.items[entry[1]] then
      if entry[2] == "grass" then
        grass = grass + 1
      elseif entry[2] == "water" then
        water = water + 1
      else
        any = any + 1
      end
    end
  end
  return grass, water, any
end

function Game:balls_left()
  return math.max(0, self.rules.balls - self.balls_thrown)
end

function Game:turns_left()
  return math.max(0, self.rules.turns - self.turns_taken)
end

-- Whether a card's criteria hold with the habitats showing this turn.
function Game:meets_card(c, grass, water)
  local card = self.rules.cards[c]
  local bonus_grass, bonus_water, bonus_any = self:habitat_bonuses()
  local habitats = false
  for to_grass = 0, bonus_any do
    local g = math.max(0, card.grass - (bonus_grass + to_grass))
    local w = math.max(0, card.water - (bonus_water + (bonus_any - to_grass)))
    if g <= grass and w <= water then
      habitats = true
      break
    end
  end
  return habitats and (card.area == nil or self:meets(card.area)) and (card.item == nil or self.items[card.item] == true)
end

------------------------------------------------------------------------------------------
-- Fills and everything that follows from them (the engine's `cascade`).

function Game:push(step)
  table.insert(self.steps, step)
end

function Game:fill(b)
  self:cascade({ "fill", b })
end

function Game:collect(s)
  self:cascade({ "collect", s })
end

function Game:cascade(first)
  local base = #self.steps
  self:push(first)
  while #self.steps > base do
    local step = table.remove(self.steps)
    local kind = step[1]
    if kind == "fill" then
      self:fill_step(step[2])
    elseif kind == "fill_if_open" then
      if self:can_fill(step[2]) then
        self:fill_step(step[2])
      end
    elseif kind == "gain" then
      self:gain_step(step[2], step[3])
    elseif kind == "collect" then
      self:collect_step(step[2])
    elseif kind == "bonus" then
      self:bonus_chain(step[2])
    elseif kind == "free" then
      if self.free_pending then
        local b = self:first_open(self.rules.free_boxes)
        if b ~= nil then
          self:push({ "free" })
          self:push({ "fill", b })
        else
          self.free_pending = false
        end
      end
    end
  end
end

function Game:mark_filled(b)
  local rules = self.rules
  self.filled[b] = true
  local t = rules.boxes[b].track
  local n = self.next[t]
  while n ~= nil and self.filled[n] do
    n = rules.boxes[n].following
  end
  self.next[t] = n
end

function Game:fill_step(b)
  local box = self.rules.boxes[b]
  self:mark_filled(b)
  self.vp = self.vp + box.vp
  self.free_pending = self.free_pending or box.may_open_free
  self:event({ event = "fill", box = box.id, vp = box.vp })
  -- Pushed last to first: the gains happen first, then the chain, then free boxes.
  self:push({ "free" })
  if box.style == "bonus" then
    self:push({ "bonus", box.section })
  end
  for k = #box.gains, 1, -1 do
    self:push({ "gain", b, k })
  end
end

function Game:gain_step(b, k)
  local gain = self.rules.boxes[b].gains[k]
  if gain[1] == "item" then
    local i = gain[2]
    if not self.items[i] then
      self.items[i] = true
      self.free_pending = self.free_pending or self.rules.item_opens_free[i]
      self:event_boxes(self.rules.obtain_boxes[i])
    end
  elseif gain[1] == "habitat" then
    local h = gain[2]
    if h == "grass" or h == "water" then
      self.bonus[h] = self.bonus[h] + 1
    else
      self.bonus.any = self.bonus.any + 1
    end
  elseif gain[1] == "species" then
    self:push({ "collect", gain[2] })
  end
end

-- In each section, the first open box the event fills there (in the variant
-- "one-plus-trigger-per-section", the first that is not a trigger box and the first trigger box).
function Game:event_boxes(list)
  local open, served = {}, {}
  local beside = self.rules.event_fills == "one-plus-trigger-per-section"
  for _, b in ipairs(list) do
    if self:can_fill(b) then
      local box = self.rules.boxes[b]
      local slot = box.section .. ((beside and box.style == "trigger") and "t" or "b")
      if not served[slot] then
        served[slot] = true
        table.insert(open, b)
      end
    end
  end
  for n = #open, 1, -1 do
    self:push({ "fill_if_open", open[n] })
  end
end

function Game:collect_step(s)
  if not self.species[s] then
    self.species[s] = true
    self.unique_species = self.unique_species + 1
    self.free_pending = self.free_pending or self.rules.species_opens_free[s]
  end
  self:event({ event = "collect", species = self.rules.species[s].id })
  self:push({ "free" })
  self:event_boxes(self.rules.collect_boxes[s])
end

function Game:bonus_chain(from_section)
  local rules = self.rules
  local choices = {}
  for _, t in ipairs(rules.bonus_tracks) do
    local b = self.next[t]
    if b ~= nil then
      local box = rules.boxes[b]
      local label_met = box.used_item == nil or self.items[box.used_item] == true
      if box.bonus_can_fill and label_met and self:can_fill(b) and not (box.style == "bonus" and box.section == from_section) then
        table.insert(choices, { "box", b })
      end
    end
  end
  if #choices == 0 then
    return
  end
  local choice = self:decide("bonus", choices, { from = from_section })
  if choice[1] == "box" then
    self:push({ "fill", choice[2] })
  end
end

-- One of `choices`: the only one, or the player's.
function Game:decide(decision, choices, context)
  if #choices == 1 then
    return choices[1]
  end
  local request = { kind = "decide", decision = decision, choices = choices }
  for key, value in pairs(context or {}) do
    request[key] = value
  end
  return self:ask(request)
end

------------------------------------------------------------------------------------------
-- The turn.

function Game:roll_die(set, i)
  local die = set == "capture" and self.rules.capture[i] or self.rules.expedition[i]
  local face = self:ask({ kind = "die", set = set, die = i, faces = die })
  if not contains(die, face) then
    error("die " .. i .. " of the " .. set .. " dice has no face `" .. tostring(face) .. "`", 0)
  end
  return face
end

-- The whole game of this sheet: turns until the player is out.
function Game:play()
  while self.out == nil do
    self:ask({ kind = "begin" })
    self:take_turn()
  end
end

function Game:take_turn()
  local rules = self.rules
  if self.out ~= nil then
    return
  end
  local turn_box = self:first_open(rules.turn_boxes)
  if self:turns_left() == 0 then
    self.out = "turns"
    self:event({ event = "out", reason = "turns" })
    return
  end
  self.turns_taken = self.turns_taken + 1
  self.turn = { discard_emptied = false }
  self:event({ event = "turn", turn = self.turns_taken })
  if turn_box ~= nil then
    self:fill(turn_box)
  end
  local faces = {}
  for i = 1, #rules.expedition do
    faces[i] = self:roll_die("expedition", i)
  end
  faces = self:keep_rolling(faces, self:rolls_per_turn() - 1)
  if faces ~= nil then
    self:resolve_faces(faces)
  end
  self:end_turn()
end

function Game:end_turn()
  if self:balls_left() == 0 then
    self.out = "balls"
  elseif self:turns_left() == 0 then
    self.out = "turns"
  end
  if self.out ~= nil then
    self:event({ event = "out", reason = self.out })
  end
end

function Game:keep_rolling(faces, rolls_left)
  local rules = self.rules
  local bicycle = self:holding(rules.steps.reroll_hazard) ~= nil
  while true do
    local shown = {}
    for i, f in ipairs(faces) do
      shown[i] = f
    end
    self:event({ event = "roll", faces = shown })
    local hazards, first_hazard = 0, nil
    for i, f in ipairs(faces) do
      if f == "hazard" then
        hazards = hazards + 1
        first_hazard = first_hazard or i
      end
    end
    if hazards >= rules.hazard_limit then
      self:event({ event = "bust" })
      return nil
    end
    if rolls_left == 0 then
      return faces
    end
    local free = {}
    local any_free = false
    for i, f in ipairs(faces) do
      free[i] = f ~= "hazard"
      any_free = any_free or free[i]
    end
    local hazard_die = bicycle and first_hazard or nil
    if not any_free and hazard_die == nil then
      return faces
    end
    local choice = self:ask({ kind = "decide", decision = "reroll", faces = shown, free = free, hazard = hazard_die, rolls_left = rolls_left })
    if choice[1] ~= "reroll" then
      return faces
    end
    -- A set of dice the roll does not allow stops rolling, as in the engine.
    local dice, any = choice[2] or {}, false
    for i = 1, #faces do
      if dice[i] then
        any = true
        if not free[i] and i ~= hazard_die then
          return faces
        end
      end
    end
    if not any then
      return faces
    end
    for i = 1, #faces do
      if dice[i] then
        faces[i] = self:roll_die("expedition", i)
      end
    end
    rolls_left = rolls_left - 1
  end
end

local function count_faces(faces)
  local showing = { 0, 0, 0, 0, 0, 0 }
  for _, f in ipairs(faces) do
    showing[ACTION[f]] = showing[ACTION[f]] + 1
  end
  return showing
end

function Game:resolve_faces(faces)
  local showing = count_faces(faces)
  self:face_fills(showing)
  local trainers = self:spend_trainers(showing[ACTION.trainer], false)
  self:encounter(showing, trainers)
end

function Game:face_fills(showing)
  local rules = self.rules
  for f, face in ipairs(R.ACTIONS) do
    local tracks = rules.face_tracks[f]
    if #tracks > 0 then
      for copy = 0, showing[f] - 1 do
        local choices = {}
        for _, t in ipairs(tracks) do
          local b = self:open_next(t)
          if b ~= nil and rules.boxes[b].face == face then
            table.insert(choices, { "track", t })
          end
        end
        if #choices == 0 then
          break
        end
        local choice = self:decide("track", choices, { face = face, left = showing[f] - copy - 1 })
        local b = choice[1] == "track" and self.next[choice[2]] or nil
        if b ~= nil then
          self:fill(b)
        end
      end
    end
  end
end

-- Whether the discard pile is empty, asked of the table (a reshuffle this turn emptied it).
function Game:discard_empty()
  if self.turn.discard_emptied then
    return true
  end
  return self:ask({ kind = "discard_empty" }) == true
end

-- Items used with Trainer faces outside the encounter, before it or `after` it; returns the
-- Trainer faces left.
function Game:spend_trainers(trainers, after)
  local rules = self.rules
  while trainers > 0 do
    local choices = { { "stop" } }
    for _, i in ipairs(rules.usable_items) do
      if self.items[i] then
        local useful = false
        for _, b in ipairs(rules.use_boxes[i]) do
          if self:can_fill(b) then
            useful = true
            break
          end
        end
        if not useful and contains(rules.steps.reshuffle_discard, i) then
          useful = not self:discard_empty()
        end
        if useful then
          table.insert(choices, { "use", i })
        end
      end
    end
    if #choices == 1 then
      break
    end
    local choice = self:decide("use", choices, { trainers = trainers, after = after })
    if choice[1] ~= "use" then
      break
    end
    trainers = trainers - 1
    self:use_item(choice[2])
  end
  return trainers
end

-- Uses item `i`; `on` says on what, for the log: a Repel's species, a Poké Doll's die.
function Game:use_item(i, on)
  local rules = self.rules
  local event = { event = "use", item = rules.items[i].id }
  for key, value in pairs(on or {}) do
    event[key] = value
  end
  self:event(event)
  if contains(rules.steps.reshuffle_discard, i) then
    self.turn.discard_emptied = true
    self:event({ event = "reshuffle" })
  end
  for _, b in ipairs(rules.use_boxes[i]) do
    if self:can_fill(b) then
      self:fill(b)
      return
    end
  end
end

-- Cards drawn from the Encounter Deck, by the table: their indices in the rules.
function Game:draw(count)
  local ids = self:ask({ kind = "draw", count = count })
  local cards = {}
  for _, id in ipairs(ids or {}) do
    local c = self.rules.card_index[id]
    if c == nil then
      error("no card `" .. tostring(id) .. "` in the deck", 0)
    end
    table.insert(cards, c)
  end
  local names = {}
  for n, c in ipairs(cards) do
    names[n] = self.rules.cards[c].id
  end
  self:event({ event = "draw", cards = names })
  return cards
end

function Game:discard(cards)
  if #cards > 0 then
    self.turn.discard_emptied = false
    local names = {}
    for n, c in ipairs(cards) do
      names[n] = self.rules.cards[c].id
    end
    self:event({ event = "discard", cards = names })
  end
end

function Game:encounter(showing, trainers)
  local rules = self.rules
  local grass, water = showing[ACTION.grass], showing[ACTION.water]
  if grass + water == 0 then
    return
  end
  local drawn = self:draw(grass + water)
  -- The Repel, a Trainer face each time: every drawn card of the species the player chooses
  -- (by the first of its cards) is discarded and as many drawn.
  local repel = self:holding(rules.steps.redraw_species)
  while repel ~= nil and trainers > 0 and #drawn > 0 do
    local choices = { { "stop" } }
    local seen = {}
    for n, c in ipairs(drawn) do
      local species = rules.cards[c].species
      if not seen[species] then
        seen[species] = true
        table.insert(choices, { "card", n })
      end
    end
    local choice = self:decide("repel", choices, { drawn = drawn, grass = grass, water = water, trainers = trainers })
    if choice[1] ~= "card" then
      break
    end
    local species = rules.cards[drawn[choice[2]]].species
    trainers = trainers - 1
    self:use_item(repel, { species = rules.species[species].id })
    local gone, kept = {}, {}
    for _, c in ipairs(drawn) do
      if rules.cards[c].species == species then
        table.insert(gone, c)
      else
        table.insert(kept, c)
      end
    end
    self:discard(gone)
    for _, c in ipairs(self:draw(#gone)) do
      table.insert(kept, c)
    end
    drawn = kept
  end
  local choices = { { "stop" } }
  for n, c in ipairs(drawn) do
    if self:meets_card(c, grass, water) then
      table.insert(choices, { "card", n })
    end
  end
  local choice = self:decide("card", choices, { drawn = drawn, grass = grass, water = water })
  local chosen = nil
  if choice[1] == "card" then
    chosen = table.remove(drawn, choice[2])
  end
  self:discard(drawn)
  if chosen ~= nil then
    trainers = self:meet(chosen, trainers)
  end
  -- Items may be used after the encounter too, with the Trainer faces left.
  self:spend_trainers(trainers, true)
end

-- Returns the Trainer faces left.
function Game:meet(card, trainers)
  self:event({ event = "encounter", card = self.rules.cards[card].id })
  return self:throw_at(card, trainers)
end

function Game:boosts_to_catch(short, trainers)
  local chosen, added = {}, 0
  for _, entry in ipairs(self.rules.steps.capture_boost) do
    if added >= short or #chosen >= trainers then
      break
    end
    if self.items[entry[1]] then
      table.insert(chosen, entry)
      added = added + entry[2]
    end
  end
  if added >= short and short > 0 then
    return chosen
  end
  return {}
end

-- Throws until a catch, the player lets the card go, or the balls run out. Before each throw
-- after a miss, a player holding the Poké Doll with a Trainer face left may keep one die of
-- the last throw at what it shows (`{ "lock", die, value }`, the first die showing each
-- value). Returns the Trainer faces left.
function Game:throw_at(card, trainers)
  local rules = self.rules
  local rate = math.max(0, rules.cards[card].capture_rate - self:capture_bonus())
  local doll = self:holding(rules.steps.lock_capture_die)
  local locked = nil
  local ask = false
  local dice = {}
  while true do
    if self:balls_left() == 0 then
      self:discard({ card })
      return trainers
    end
    if ask then
      local choices = { { "throw" }, { "stop" } }
      if doll ~= nil and locked == nil and trainers > 0 then
        local seen = {}
        for i, value in ipairs(dice) do
          if not seen[value] then
            seen[value] = true
            table.insert(choices, { "lock", i, value })
          end
        end
      end
      local choice = self:decide("throw", choices, { card = card, rate = rate, trainers = trainers })
      if choice[1] == "lock" then
        trainers = trainers - 1
        locked = { die = choice[2], value = choice[3] }
        self:use_item(doll, { keeps = { die = choice[2] - 1, value = choice[3] } })
      elseif choice[1] ~= "throw" then
        self:discard({ card })
        return trainers
      end
    end
    ask = true
    local b = self:first_open(rules.ball_boxes)
    if b ~= nil then
      self:fill(b)
    end
    self.balls_thrown = self.balls_thrown + 1
    local total = 0
    dice = {}
    for i = 1, #rules.capture do
      local value
      if locked ~= nil and locked.die == i then
        value = locked.value
      else
        value = self:roll_die("capture", i)
      end
      dice[i] = value
      total = total + value
    end
    for _, entry in ipairs(self:boosts_to_catch(math.max(0, rate - total), trainers)) do
      trainers = trainers - 1
      total = total + entry[2]
      self:use_item(entry[1])
    end
    local caught = total >= rate
    self:event({ event = "throw", dice = dice, total = total, needed = rate, caught = caught })
    if caught then
      self:collect(rules.cards[card].species)
      return trainers
    end
  end
end

------------------------------------------------------------------------------------------
-- Driving a game.

-- A game started in a coroutine: `game:answer(value)` resumes it, and `game.request` is
-- what it waits for next (nil once the player is out). An answer it cannot take (a face no
-- die has, a card the deck lacks) leaves `game.broken` saying why.
function R.start(rules)
  local game = R.new(rules)
  game.thread = coroutine.create(function()
    game:play()
  end)
  game:answer(nil)
  return game
end

function Game:answer(value)
  if self.thread == nil or coroutine.status(self.thread) == "dead" then
    return
  end
  local ok, request = coroutine.resume(self.thread, value)
  if not ok then
    self.broken = tostring(request)
    self.request = nil
    return
  end
  self.request = request
end

-- Whether `choice` is among the choices the waiting decision offers.
function Game:offers(choice)
  local request = self.request
  if request ~= nil and request.kind == "begin" then
    return choice == nil
  end
  if request == nil or request.kind ~= "decide" or type(choice) ~= "table" then
    return false
  end
  if request.decision == "reroll" then
    return choice[1] == "stop" or choice[1] == "reroll"
  end
  for _, c in ipairs(request.choices) do
    if c[1] == choice[1] and c[2] == choice[2] and c[3] == choice[3] then
      return true
    end
  end
  return false
end

