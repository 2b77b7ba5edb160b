-- Gamewright's Safari's score, counted from the table as the rulebook counts it: each player's
-- hand, the best animal of each suit for its value and every other one against it (the
-- ruleset's `scoring`), the penalty suit against it; a tie goes to the most cards of the
-- highest value, then the next value down. The game is over when no card of the jungle lies
-- face down, or the last Safari Charlie has been played (`end`); before that the count says
-- who would win if it ended now.

local wiring = {}
local ruleset = nil

-- The animal cards by id (suit, value), the values from the highest down, and how many
-- Safari Charlies the game has.
local function cards_of(rules)
  local animals, values, seen = {}, {}, {}
  for _, card in ipairs((SafariTable.find(ruleset.decks, rules.animals) or {}).cards or {}) do
    local value = tonumber(card.fields and card.fields[rules.value_field]) or 0
    animals[card.id] = { suit = card.symbol, value = value }
    if not seen[value] then
      seen[value] = true
      table.insert(values, value)
    end
  end
  table.sort(values, function(a, b)
    return a > b
  end)
  local charlies = 0
  for _, card in ipairs((SafariTable.find(ruleset.decks, rules.charlie) or {}).cards or {}) do
    charlies = charlies + (card.copies or 1)
  end
  return animals, values, charlies
end

-- A hand's score and tie-break key (how many cards of each value, from the highest).
local function count_hand(rules, animals, values, held)
  local scoring = rules.scoring
  local best, total, per_value = {}, 0, {}
  for _, object in ipairs(held) do
    local what = SafariTable.what(object)
    local card = what and what.deck == rules.animals and animals[what.card]
    if card then
      per_value[card.value] = (per_value[card.value] or 0) + 1
      if card.suit == rules.penalty then
        total = total + scoring.penalty_suit * card.value
      else
        total = total + scoring.rest_of_suit * card.value
        best[card.suit] = math.max(best[card.suit] or card.value, card.value)
      end
    end
  end
  for _, value in pairs(best) do
    total = total + (scoring.best_of_suit - scoring.rest_of_suit) * value
  end
  local key = {}
  for n, value in ipairs(values) do
    key[n] = per_value[value] or 0
  end
  return total, key
end

local function better(a, b)
  if a.score ~= b.score then
    return a.score > b.score
  end
  for n = 1, #a.key do
    if a.key[n] ~= b.key[n] then
      return a.key[n] > b.key[n]
    end
  end
  return false
end

local function count()
  local rules = ruleset.rules
  local animals, values, charlies = cards_of(rules)
  local seats, held_by = SafariTable.seats_in_play(wiring)
  if #seats == 0 then
    SafariTable.warn(self, "no seat has its hand zone on the table: choose the number of players first.")
    return
  end
  local setup = rules.setups[tostring(#seats)] or {}
  local cells = setup.jungle and setup.jungle.rows * setup.jungle.columns or 0
  -- The jungle: the animal cards in no hand (but those the setup set aside), and the Safari
  -- Charlies played into it in the cells the animals leave.
  local aside, face_down, out = {}, 0, 0
  for _, id in ipairs(setup.removed or {}) do
    aside[id] = (aside[id] or 0) + 1
  end
  for _, object in ipairs(getObjects()) do
    local what = SafariTable.what(object)
    if object.type == "Card" and what and what.deck == rules.animals and held_by[object.getGUID()] == nil then
      if (aside[what.card] or 0) > 0 then
        aside[what.card] = aside[what.card] - 1
      else
        out = out + 1
        if object.is_face_down then
          face_down = face_down + 1
        end
      end
    end
  end
  local played = math.max(0, cells - out)
  local parts = {}
  for _, seat in ipairs(seats) do
    seat.score, seat.key = count_hand(rules, animals, values, seat.held)
    table.insert(parts, seat.colour .. " " .. seat.score)
  end
  local leaders = SafariTable.names(SafariTable.best(seats, better))
  local ending
  if out == 0 then
    ending = "The jungle is not laid out yet: choose the number of players."
  elseif rules["end"].jungle_face_up and face_down == 0 then
    ending = "The jungle lies face up: the game is over, and " .. leaders .. " wins."
  elseif rules["end"].last_charlie_played and charlies > 0 and played >= charlies then
    ending = "The last Safari Charlie is played: the game is over, and " .. leaders .. " wins."
  else
    ending = face_down .. " jungle cards still lie face down: if the game ended now, " .. leaders .. " would win."
  end
  broadcastToAll("Score: " .. table.concat(parts, ", ") .. ". " .. ending, { 0.6, 0.9, 0.6 })
end

SafariTable.one_button_block({
  heading = "The score:",
  label = "Count the score",
  tooltip = "Each hand as the rulebook scores it; who wins",
}, function(read_wiring, read_ruleset)
  wiring, ruleset = read_wiring, read_ruleset
  count()
end)
