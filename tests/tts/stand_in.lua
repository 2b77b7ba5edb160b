-- A stand-in for the part of Tabletop Simulator's API the saves' scripts use, which records
-- what they do: objects by GUID, buttons, moves, dice shown, and (through the Rust stand-in)
-- the chat. Loaded before the scripts, in the same Lua 5.2.

Stand = { objects = {}, order = {}, seated = {}, hands = {} }

-- MoonSharp's `error` takes a string only (a table raises "bad argument"), unlike Lua 5.2's.
local lua_error = error
function error(message, level)
  if type(message) ~= "string" then
    lua_error("bad argument #1 to 'error' (string expected, got " .. type(message) .. ")", 2)
  end
  if level == 0 then
    lua_error(message, 0)
  end
  lua_error(message, (level or 1) + 1)
end

function getObjectFromGUID(guid)
  return Stand.objects[guid]
end

function getObjects()
  local list = {}
  for _, guid in ipairs(Stand.order) do
    if Stand.objects[guid] ~= nil then
      table.insert(list, Stand.objects[guid])
    end
  end
  return list
end

-- A player's colour: whether someone sits there, and what lies in its hand (`Stand.hands`,
-- which `deal` fills and a test may set).
Player = setmetatable({}, {
  __index = function(_, colour)
    return {
      color = colour,
      seated = Stand.seated[colour] == true,
      getHandObjects = function()
        local held = {}
        for _, o in ipairs(Stand.hands[colour] or {}) do
          table.insert(held, o)
        end
        return held
      end,
    }
  end,
})

function broadcastToColor(message, colour, tint)
  printToAll("[to " .. tostring(colour) .. "] " .. message, tint)
end

local function vector(p)
  return { x = p.x or p[1] or 0, y = p.y or p[2] or 0, z = p.z or p[3] or 0 }
end

-- An object: `fields` are its save's (guid, name, type, transform, script_state, memo), with
-- `contained` the objects a deck holds, top first, and `half` its extent before scale (x and
-- z, from the centre) as the conventions of docs/tabletop-simulator.md size it. Where it lies
-- and how it turns are the conventions' too (`stand_world`, given by the tests in Rust).
function Stand.object(fields)
  local o = {
    type = fields.type,
    description = fields.description,
    memo = fields.memo,
    script_state = fields.script_state or "",
    buttons = {},
    position = vector(fields.position or { 0, 1, 0 }),
    rotation = vector(fields.rotation or { 0, 0, 0 }),
    contained = fields.contained or {},
    moves = 0,
  }
  local scale = vector(fields.scale or { 1, 1, 1 })
  local half = vector(fields.half or { 1, 0.05, 1 })
  o.getGUID = function() return fields.guid end
  o.getName = function() return fields.name end
  o.getScale = function() return { x = scale.x, y = scale.y, z = scale.z } end
  -- The size of the object as if it were not turned, in the table's units.
  o.getBoundsNormalized = function()
    return { center = o.position, size = { x = 2 * half.x * scale.x, y = 2 * half.y * scale.y, z = 2 * half.z * scale.z }, offset = { x = 0, y = 0, z = 0 } }
  end
  o.getPosition = function() return o.position end
  o.getRotation = function() return { x = o.rotation.x, y = o.rotation.y, z = o.rotation.z } end
  o.positionToWorld = function(p)
    return stand_world(o.position, o.rotation, scale, vector(p))
  end
  o.created = 0
  o.createButton = function(spec)
    assert(type(spec.click_function) == "string", "a button's click_function is a name")
    assert(spec.function_owner == o, "a button's function_owner is its object")
    table.insert(o.buttons, spec)
    o.created = o.created + 1
    return true
  end
  o.editButton = function(spec)
    local b = o.buttons[spec.index + 1]
    assert(b ~= nil, "no button " .. tostring(spec.index))
    for key, value in pairs(spec) do
      if key ~= "index" then
        b[key] = value
      end
    end
    return true
  end
  o.removeButton = function(index)
    assert(o.buttons[index + 1] ~= nil, "no button " .. tostring(index))
    table.remove(o.buttons, index + 1)
    return true
  end
  o.getObjects = function()
    return o.contained
  end
  -- A function of the object's script (`script_env`, set when its script is loaded).
  o.call = function(name, params)
    local env = o.script_env
    assert(env ~= nil and type(env[name]) == "function", "no function " .. tostring(name) .. " on " .. tostring(fields.name))
    return env[name](params)
  end
  o.getButtons = function()
    return o.buttons
  end
  o.clearButtons = function()
    o.buttons = {}
    return true
  end
  o.setPositionSmooth = function(p)
    o.position = vector(p)
    o.moves = o.moves + 1
  end
  o.destruct = function()
    Stand.objects[fields.guid] = nil
    o.destroyed = true
    return true
  end
  o.setRotation = function(r) o.rotation = vector(r) end
  o.setPosition = function(p) o.position = vector(p) end
  o.setRotationValue = function(v) o.shows = v end
  -- Shuffling keeps the order: the stand-in's games repeat.
  o.shuffle = function()
    o.shuffled = (o.shuffled or 0) + 1
    Stand.shuffles = (Stand.shuffles or 0) + 1
    return true
  end
  -- As the game does once a deck is down to one card: the card is left on the table in the
  -- deck's place (the deck's `remainder`), and the deck is gone. A bag stays a bag.
  local function left_one()
    if o.type == "Deck" and #o.contained == 1 then
      o.remainder = table.remove(o.contained, 1)
      o.remainder.position = o.position
      o.remainder.rotation = o.rotation
      Stand.objects[o.getGUID()] = nil
      Stand.add(o.remainder)
    end
  end
  -- As the API documents it: the card comes out where `position` says (else 2 to the
  -- container's +x), turned as `rotation` says, else as the container is, turned over about
  -- its z axis when `flip`.
  o.takeObject = function(params)
    local card = table.remove(o.contained, 1)
    if card == nil then
      return nil
    end
    card.position = vector(params.position or { o.position.x + 2, o.position.y, o.position.z })
    if params.rotation ~= nil then
      card.rotation = vector(params.rotation)
    else
      card.rotation = { x = o.rotation.x, y = o.rotation.y, z = (o.rotation.z + (params.flip and 180 or 0)) % 360 }
    end
    card.taken = true
    Stand.objects[card.getGUID()] = card
    table.insert(Stand.order, card.getGUID())
    left_one()
    return card
  end
  -- `deal(number, colour)`: that many from the top into the hand of that colour
  -- (`Stand.hands`), as the API documents it. A card in a hand is still an object of the
  -- table (`getObjects` lists it), `in_hand` of that colour.
  o.deal = function(number, colour)
    Stand.hands[colour] = Stand.hands[colour] or {}
    for _ = 1, number do
      local card = table.remove(o.contained, 1)
      if card == nil then
        break
      end
      card.in_hand = colour
      table.insert(Stand.hands[colour], card)
      Stand.add(card)
    end
    left_one()
    return true
  end
  -- `is_face_down`, read only: roughly face down, its face (local +y) toward the table.
  return setmetatable(o, {
    __index = function(_, key)
      if key == "is_face_down" then
        local x, z = o.rotation.x % 360, o.rotation.z % 360
        return (z > 90 and z < 270) ~= (x > 90 and x < 270)
      end
      return nil
    end,
  })
end

function Stand.add(o)
  if Stand.objects[o.getGUID()] == nil then
    local listed = false
    for _, guid in ipairs(Stand.order) do
      listed = listed or guid == o.getGUID()
    end
    if not listed then
      table.insert(Stand.order, o.getGUID())
    end
  end
  Stand.objects[o.getGUID()] = o
end

-- The labels of an object's buttons, in order.
function Stand.labels(o)
  local labels = {}
  for n, b in ipairs(o.buttons) do
    labels[n] = b.label or ""
  end
  return labels
end

-- Clicks the first button whose label starts with `label` (or the n-th button, for a
-- number), as `colour`, with the script environment `env` that owns it.
function Stand.click(env, o, label, colour)
  for n, b in ipairs(o.buttons) do
    -- A label broken over two lines reads as one.
    local text = string.gsub(b.label or "", "\n", " ")
    if (type(label) == "number" and n == label) or (type(label) == "string" and string.sub(text, 1, #label) == label) then
      local fn = env[b.click_function]
      assert(fn ~= nil, "no function " .. tostring(b.click_function))
      fn(o, colour or "White", false)
      return true
    end
  end
  return false
end

-- One step of a player who takes what is offered: rolls, keeps the dice, fills the first gold
-- box, meets the first card and throws until it is caught. Returns what it clicked, or nil
-- once the sheet asks nothing more.
function Stand.auto(env, o)
  for _, label in ipairs({ "Roll the Expedition Dice", "Keep these", "Keep them", "Go on", "Throw a Safari Ball" }) do
    if Stand.click(env, o, label) then
      return label
    end
  end
  for n, b in ipairs(o.buttons) do
    if b.color and b.color[1] == 1 and b.color[2] == 0.8 then
      Stand.click(env, o, n)
      return "gold box " .. tostring(b.tooltip)
    end
  end
  for n, b in ipairs(o.buttons) do
    if string.match(string.gsub(b.label or "", "\n", " "), "%(%d+%+%)$") then
      Stand.click(env, o, n)
      return "card " .. b.label
    end
  end
  if Stand.click(env, o, "Let them go") then
    return "Let them go"
  end
  return nil
end

-- An object as the game saves it (`Name`, `Nickname`, `ContainedObjects`...), made.
function Stand.from_data(data)
  local kinds = { DeckCustom = "Deck", Deck = "Deck", Card = "Card", CardCustom = "Card" }
  local contained = {}
  for _, inner in ipairs(data.ContainedObjects or {}) do
    table.insert(contained, Stand.from_data(inner))
  end
  local at = data.Transform or {}
  local made = Stand.object({
    guid = data.GUID,
    name = data.Nickname,
    description = data.Description,
    type = kinds[data.Name] or data.Name,
    memo = data.Memo,
    script_state = data.LuaScriptState,
    scale = { at.scaleX or 1, at.scaleY or 1, at.scaleZ or 1 },
    position = { at.posX or 0, at.posY or 0, at.posZ or 0 },
    rotation = { at.rotX or 0, at.rotY or 0, at.rotZ or 0 },
    half = Stand.half_of and Stand.half_of(data) or nil,
    contained = contained,
  })
  made.data = data
  return made
end

Stand.spawned = {}
function spawnObjectData(params)
  assert(type(params.data) == "table", "spawnObjectData takes the object's data")
  local o = Stand.from_data(params.data)
  Stand.add(o)
  table.insert(Stand.spawned, o)
  -- As in the game, an object put out takes a frame to finish spawning.
  o.spawning = true
  Wait.frames(function()
    o.spawning = false
  end, 1)
  return o
end

-- The objects on the table now (not in a hand), by name: how many, and how many cards each
-- holds.
function Stand.census()
  local names = {}
  for _, o in ipairs(getObjects()) do
    if not o.in_hand then
      table.insert(names, { o.getName(), o.type, #o.contained })
    end
  end
  return names
end

-- How many objects on the table (not in a hand) have each description.
function Stand.descriptions()
  local counts = {}
  for _, o in ipairs(getObjects()) do
    if not o.in_hand and o.description ~= nil and o.description ~= "" then
      counts[o.description] = (counts[o.description] or 0) + 1
    end
  end
  return counts
end

-- The game's `Wait`: functions run after a time, a number of frames (60 a second here) or
-- once a condition holds; `Stand.run(seconds)` lets that much time pass, running what falls
-- due, in the order it was asked for.
Stand.clock = 0
Stand.waiting = {}
Wait = {}
local function wait(entry)
  table.insert(Stand.waiting, entry)
  entry.id = #Stand.waiting
  return entry.id
end
function Wait.time(fn, seconds)
  return wait({ at = Stand.clock + (seconds or 0), fn = fn })
end
function Wait.frames(fn, frames)
  return wait({ at = Stand.clock + (frames or 1) / 60, fn = fn })
end
function Wait.condition(fn, condition, timeout, on_timeout)
  return wait({ condition = condition, fn = fn, give_up = timeout and Stand.clock + timeout, on_timeout = on_timeout })
end
function Wait.stop(id)
  for _, entry in ipairs(Stand.waiting) do
    if entry.id == id then
      entry.done = true
    end
  end
end
function Stand.run(seconds)
  local finish = Stand.clock + (seconds or 0)
  repeat
    local ran = true
    while ran do
      ran = false
      for _, entry in ipairs(Stand.waiting) do
        if not entry.done then
          local due
          if entry.condition ~= nil then
            due = entry.condition()
          else
            due = entry.at <= Stand.clock + 1e-9
          end
          if due then
            entry.done = true
            entry.fn()
            ran = true
          elseif entry.give_up ~= nil and entry.give_up <= Stand.clock then
            entry.done = true
            if entry.on_timeout then
              entry.on_timeout()
            end
            ran = true
          end
        end
      end
    end
    if Stand.clock >= finish then
      break
    end
    Stand.clock = math.min(finish, Stand.clock + 0.1)
  until false
end

-- Sets out a position for a test, from every object whose memo says what it is (on the table,
-- in a deck or bag, in a hand): `position.hands` gives each colour's (a list of memos) and
-- `position.table` what lies where (`what`, a memo; `at`, {x, y, z}; `face_down`). An object
-- is matched by every field of its memo; what the position leaves out is off the table
-- (`Stand.aside`).
-- Returns what it could not find.
function Stand.arrange(position)
  local pool = {}
  -- What the position may place: cards, tiles, tokens and pieces (not sheets).
  local function gather(o)
    local ok, memo = pcall(JSON.decode, o.memo or "")
    if ok and type(memo) == "table" and (memo.deck or memo.set or memo.pieces) then
      o.what = memo
      table.insert(pool, o)
      return true
    end
    return false
  end
  for _, guid in ipairs(Stand.order) do
    local o = Stand.objects[guid]
    if o ~= nil then
      local kept = {}
      for _, inner in ipairs(o.contained or {}) do
        if not gather(inner) then
          table.insert(kept, inner)
        end
      end
      o.contained = kept
      if gather(o) then
        Stand.objects[guid] = nil
      end
    end
  end
  Stand.hands = {}
  for _, o in ipairs(Stand.aside or {}) do
    table.insert(pool, o)
  end
  local missing = {}
  local function take(what)
    for n, o in ipairs(pool) do
      local same = true
      for key, value in pairs(what) do
        same = same and o.what[key] == value
      end
      if same then
        return table.remove(pool, n)
      end
    end
    table.insert(missing, JSON.encode(what))
    return nil
  end
  for colour, list in pairs(position.hands or {}) do
    Stand.hands[colour] = {}
    for _, what in ipairs(list) do
      local o = take(what)
      if o ~= nil then
        o.in_hand = colour
        table.insert(Stand.hands[colour], o)
        Stand.add(o)
      end
    end
  end
  for _, entry in ipairs(position.table or {}) do
    local o = take(entry.what)
    if o ~= nil then
      o.position = { x = entry.at[1], y = entry.at[2], z = entry.at[3] }
      o.rotation = { x = 0, y = 180, z = entry.face_down and 180 or 0 }
      o.in_hand = nil
      Stand.add(o)
    end
  end
  -- What the position leaves out is kept off the table, for the next.
  Stand.aside = pool
  return missing
end
