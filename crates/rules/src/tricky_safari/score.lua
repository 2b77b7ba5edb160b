-- Tricky Safari's score, counted from the table as the rulebook counts it: each player's
-- photos are the animals ticked on their photo log (a box whose label is the animal's name),
-- their moves the circles filled in its `moves` track. The first to photograph every animal
-- wins once the round is played (both, when both do in the same round); after every move is
-- played, the most photos.

local wiring = {}
local ruleset = nil

-- The photo log's boxes that are an animal's photo, by box id, and the ids of its moves.
local function log_boxes(rules)
  local names, animals = {}, 0
  for _, piece in ipairs((SafariTable.find(ruleset.pieces, rules.animals) or {}).pieces or {}) do
    local symbol = SafariTable.find(ruleset.symbols, piece.symbol)
    names[string.lower(symbol and symbol.label or piece.id)] = true
    animals = animals + 1
  end
  local photo, move = {}, {}
  for _, section in ipairs((SafariTable.find(ruleset.sheets, rules.log) or {}).sections or {}) do
    for _, track in ipairs(section.tracks or {}) do
      for _, box in ipairs(track.boxes or {}) do
        if track.id == "moves" then
          move[box.id] = true
        elseif box.label ~= nil and names[string.lower(box.label)] then
          photo[box.id] = true
        end
      end
    end
  end
  return photo, move, animals
end

local function count()
  local rules = ruleset.rules
  local seats = SafariTable.seats_in_play(wiring)
  if #seats == 0 then
    SafariTable.warn(self, "no seat has its hand zone on the table: load the save safari built again.")
    return
  end
  local photo, move, animals = log_boxes(rules)
  local parts, all, played, round_done = {}, {}, true, true
  for _, seat in ipairs(seats) do
    local log = seat.sheets[rules.log]
    if log == nil then
      SafariTable.warn(self, seat.colour .. "'s photo log is not on the table.")
      return
    end
    local ok, marked = pcall(log.call, "safariMarked")
    if not ok or type(marked) ~= "table" then
      SafariTable.warn(self, seat.colour .. "'s photo log does not say what is ticked.")
      return
    end
    seat.photos, seat.moves = 0, 0
    for _, id in ipairs(marked) do
      if photo[id] then
        seat.photos = seat.photos + 1
      elseif move[id] then
        seat.moves = seat.moves + 1
      end
    end
    table.insert(parts, seat.colour .. " " .. seat.photos)
    if seat.photos >= animals then
      table.insert(all, seat.colour)
    end
    played = played and seat.moves >= rules.moves_per_player
    round_done = round_done and seat.moves == seats[1].moves
  end
  local leaders = SafariTable.names(SafariTable.best(seats, function(a, b)
    return a.photos > b.photos
  end))
  local ending
  if #all > 0 and round_done then
    ending = SafariTable.names(all) .. " photographed every animal: the game is over, and " .. SafariTable.names(all) .. " wins."
  elseif #all > 0 then
    ending = SafariTable.names(all) .. " photographed every animal: the game is over once the round's moves are made (a player who photographs every animal in the same round shares the win)."
  elseif played then
    ending = "Every move is played: the game is over, and " .. leaders .. " wins with the most photos."
  else
    ending = "If the game ended now, " .. leaders .. " would win with the most photos."
  end
  broadcastToAll("Photos: " .. table.concat(parts, ", ") .. ". " .. ending, { 0.6, 0.9, 0.6 })
end

SafariTable.one_button_block({
  heading = "Photo logs:",
  label = "Count the photos",
  tooltip = "The animals ticked on each photo log; who wins",
}, function(read_wiring, read_ruleset)
  wiring, ruleset = read_wiring, read_ruleset
  count()
end)
