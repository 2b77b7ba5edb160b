-- DiceAFARI's score, counted from the table as the rulebook counts it: each player's photos
-- (the Photo Tokens in their hand, and each one still on the map whose two tiles both hold
-- their Travel Tokens, or with Wetlands the wetter one), grouped as best they can be into
-- Tourist Sets, Researcher Sets and singles; a point for each of their Travel Tokens on the
-- map; with Exclusive Coverage, a bonus for each terrain whose every tile is theirs. The
-- values are the ruleset's `scoring`. A tile is a Safari Tile on the table; a Travel Token
-- lies on the tile under it; a Photo Token on the map lies between two tiles side by side.
-- Each seat plays the Travel Tokens of its place in the set's kinds (the setup hands them
-- out so).

local wiring = {}
local ruleset = nil

-- What a collection of photos (a count per animal) scores, grouped as best it can be: some
-- Tourist Sets (one of each animal), then per animal Researcher Sets of three with extras,
-- or singles.
local function photo_points(scoring, counts)
  local tourists = nil
  for _, n in ipairs(counts) do
    tourists = tourists == nil and n or math.min(tourists, n)
  end
  local best = nil
  for sets = 0, tourists or 0 do
    local total = sets * scoring.tourist_set
    for _, n in ipairs(counts) do
      local left = n - sets
      local points = left * scoring.single_photo
      for k = 1, math.floor(left / 3) do
        points = math.max(points, k * scoring.researcher_set + (left - 3 * k) * scoring.researcher_extra)
      end
      total = total + points
    end
    best = best == nil and total or math.max(best, total)
  end
  return best or 0
end

local function flat(object)
  local p = object.getPosition()
  return { x = p.x, z = p.z, y = p.y or 0 }
end

local function distance(a, b)
  return math.sqrt((a.x - b.x) ^ 2 + (a.z - b.z) ^ 2)
end

-- The map as it lies: its tiles (place and terrain), who holds each, and its photos.
local function read_map(rules, seat_of_kind, held_by)
  local tile_set = SafariTable.find(ruleset.tiles, rules.tiles) or {}
  local size = (tile_set.size_mm or 25.4) / (wiring.mm_per_unit or 25.4)
  local tiles, tokens, photos = {}, {}, {}
  for _, object in ipairs(getObjects()) do
    local what = SafariTable.what(object)
    if what ~= nil and held_by[object.getGUID()] == nil then
      if what.set == rules.tiles then
        table.insert(tiles, { at = flat(object), terrain = what.kind })
      elseif what.set == rules.travel and seat_of_kind[what.kind] ~= nil then
        table.insert(tokens, { at = flat(object), seat = seat_of_kind[what.kind] })
      elseif what.set == rules.photos then
        table.insert(photos, { at = flat(object), animal = what.kind })
      end
    end
  end
  -- A Travel Token lies on the tile whose middle is within half a tile of it (the top one).
  for _, token in ipairs(tokens) do
    for _, tile in ipairs(tiles) do
      if distance(token.at, tile.at) < size / 2 and (tile.top == nil or token.at.y > tile.top) then
        tile.owner, tile.top = token.seat, token.at.y
      end
    end
  end
  -- A photo on the map lies midway between two tiles side by side.
  local loose = 0
  for _, photo in ipairs(photos) do
    for a = 1, #tiles do
      for b = a + 1, #tiles do
        local ta, tb = tiles[a].at, tiles[b].at
        local apart = distance(ta, tb)
        local middle = { x = (ta.x + tb.x) / 2, z = (ta.z + tb.z) / 2 }
        if apart < size * 1.3 and distance(photo.at, middle) < size / 4 then
          photo.between = { tiles[a], tiles[b] }
        end
      end
    end
    if photo.between == nil then
      loose = loose + 1
    end
  end
  return tiles, photos, loose
end

-- Who a photo on the map goes to: the holder of both its tiles, or with Wetlands the holder
-- of the wetter one.
local function photo_owner(scoring, photo)
  local a, b = photo.between[1], photo.between[2]
  if a.owner == b.owner then
    return a.owner
  end
  if type(scoring.wetlands) ~= "table" then
    return nil
  end
  local rank = {}
  for n, terrain in ipairs(scoring.wetlands) do
    rank[terrain] = n
  end
  local ra, rb = rank[a.terrain] or math.huge, rank[b.terrain] or math.huge
  if ra == rb then
    return nil
  end
  if ra < rb then
    return a.owner
  end
  return b.owner
end

local function count()
  local rules = ruleset.rules
  local scoring = rules.scoring
  local seats, held_by = SafariTable.seats_in_play(wiring)
  if #seats == 0 then
    SafariTable.warn(self, "no seat has its hand zone on the table: choose the number of players first.")
    return
  end
  local travel = SafariTable.find(ruleset.tokens, rules.travel) or {}
  local photo_set = SafariTable.find(ruleset.tokens, rules.photos) or {}
  local seat_of_kind, animal_of = {}, {}
  for n, kind in ipairs(travel.kinds or {}) do
    if seats[n] ~= nil then
      seat_of_kind[kind.symbol] = n
    end
  end
  for n, kind in ipairs(photo_set.kinds or {}) do
    animal_of[kind.symbol] = n
  end
  local counts = {}
  for n, seat in ipairs(seats) do
    counts[n] = {}
    for a = 1, #(photo_set.kinds or {}) do
      counts[n][a] = 0
    end
    for _, object in ipairs(seat.held) do
      local what = SafariTable.what(object)
      if what and what.set == rules.photos and animal_of[what.kind] then
        counts[n][animal_of[what.kind]] = counts[n][animal_of[what.kind]] + 1
      end
    end
  end
  local tiles, photos, loose = read_map(rules, seat_of_kind, held_by)
  for _, photo in ipairs(photos) do
    local owner = photo.between and photo_owner(scoring, photo)
    if owner ~= nil and animal_of[photo.animal] then
      counts[owner][animal_of[photo.animal]] = counts[owner][animal_of[photo.animal]] + 1
    end
  end
  for n, seat in ipairs(seats) do
    seat.score = photo_points(scoring, counts[n])
  end
  local unclaimed, by_terrain = 0, {}
  for _, tile in ipairs(tiles) do
    if tile.owner == nil then
      unclaimed = unclaimed + 1
    else
      seats[tile.owner].score = seats[tile.owner].score + scoring.travel_token_on_map
    end
    local holders = by_terrain[tile.terrain] or {}
    holders[tile.owner or 0] = true
    by_terrain[tile.terrain] = holders
  end
  if (scoring.exclusive_coverage or 0) ~= 0 then
    for _, holders in pairs(by_terrain) do
      local only = nil
      for owner in pairs(holders) do
        only = only == nil and owner or -1
      end
      if only ~= nil and only > 0 then
        seats[only].score = seats[only].score + scoring.exclusive_coverage
      end
    end
  end
  local parts = {}
  for _, seat in ipairs(seats) do
    table.insert(parts, seat.colour .. " " .. seat.score)
  end
  local leaders = SafariTable.best(seats, function(a, b)
    return a.score > b.score
  end)
  local who = SafariTable.names(leaders)
  if #leaders > 1 then
    who = who .. " (tied: of them, the one whose last turn came first)"
  end
  local ending
  if #tiles == 0 then
    ending = "No map is laid out yet."
  elseif unclaimed == 0 then
    local turns = rules["end"] and rules["end"].min_turns or 0
    ending = "Every tile holds a Travel Token: the game is over at the end of this turn"
      .. (turns > 1 and (" once every player has had " .. turns .. " turns") or "") .. ", and " .. who .. " wins."
  else
    ending = unclaimed .. " tiles hold no Travel Token yet: if the game ended now, " .. who .. " would win."
  end
  if loose > 0 then
    ending = ending .. " " .. loose .. " Photo Tokens lie neither in a hand nor between two tiles, and are not counted: put each photo you take in your hand."
  end
  broadcastToAll("Score: " .. table.concat(parts, ", ") .. ". " .. ending, { 0.6, 0.9, 0.6 })
end

SafariTable.one_button_block({
  heading = "The score:",
  label = "Count the score",
  tooltip = "Photos and Travel Tokens as the rulebook scores them; who wins",
}, function(read_wiring, read_ruleset)
  wiring, ruleset = read_wiring, read_ruleset
  count()
end)
