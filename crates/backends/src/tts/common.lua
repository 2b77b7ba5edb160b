-- What every script on a table safari built shares, placed before each script (the game's
-- Lua has no `require`): reading a ruleset from the text a rules object saves, finding the
-- rules object, and naming the functions buttons call.

SafariTable = {}

-- The JSON object `text` holds (a script's saved state, a ruleset, a card's memo), or nil.
-- Only an object is decoded: what the game's JSON.decode does with other text is not
-- documented, and an error there may not be one pcall can catch.
function SafariTable.decode_object(text)
  if type(text) ~= "string" or not string.match(text, "^%s*{") then
    return nil
  end
  local ok, decoded = pcall(JSON.decode, text)
  if ok and type(decoded) == "table" then
    return decoded
  end
  return nil
end

-- The ruleset in `text`, or nil and why it cannot be read, in words that say what to do.
function SafariTable.read_ruleset(text, format, version_key, version)
  if text == nil or text == "" then
    return nil, "the table carries no ruleset. Build it again with `safari build` and load the new save."
  end
  local decoded = SafariTable.decode_object(text)
  if decoded == nil then
    return nil, "the ruleset the table carries is not JSON. Build it again with `safari build` and load the new save."
  end
  if decoded.format ~= format then
    return nil, "the table carries a ruleset of another kind (format " .. tostring(decoded.format)
      .. "), where its scripts read " .. format .. ". Build it again with `safari build` and load the new save."
  end
  if decoded[version_key] ~= version then
    return nil, "the table carries a ruleset of format version " .. tostring(decoded[version_key])
      .. ", and its scripts read version " .. version
      .. ". Build the save again with `safari build`, from the same safari that built the ruleset, and load the new save."
  end
  return decoded, nil
end

-- The rules object `wiring` names: by its GUID, or (the game gives objects spawned beside
-- others new GUIDs when theirs are taken) by its name.
function SafariTable.rules_object(wiring)
  local holder = wiring.rules and getObjectFromGUID(wiring.rules)
  if holder ~= nil then
    return holder
  end
  for _, object in ipairs(getObjects()) do
    if wiring.rules_name ~= nil and object.getName() == wiring.rules_name then
      return object
    end
  end
  return nil
end

-- Calls `found(thing)` once `find()` gives something, else (after ten seconds) `missing(why)`,
-- `why` the last reason `find` gave: objects loaded or spawned together come in no order the
-- game documents, so what one script needs of another may not be there yet.
function SafariTable.when_found(find, found, missing, tries)
  tries = tries or 0
  local thing, why = find()
  if thing ~= nil then
    found(thing)
  elseif tries < 10 and Wait ~= nil then
    Wait.time(function()
      SafariTable.when_found(find, found, missing, tries + 1)
    end, 1)
  else
    missing(why)
  end
end

-- Names for the functions a script's buttons call (a button names its function as a global):
-- `add(fn)` names the next one `<prefix><n>`; `reset()` starts again from 1, as the buttons
-- are made again.
function SafariTable.handlers(prefix)
  local count = 0
  return {
    add = function(fn)
      count = count + 1
      local name = prefix .. count
      _G[name] = fn
      return name
    end,
    reset = function()
      count = 0
    end,
  }
end

-- A line of text above an object's buttons (a button with no face, that does nothing): what
-- the buttons below it ask.
function SafariTable.heading(object, handlers, label, font_size)
  object.createButton({
    click_function = handlers.add(function() end),
    function_owner = object,
    label = label,
    position = { 0, 0.6, -1.2 },
    width = 0,
    height = 0,
    font_size = font_size,
    font_color = { 1, 1, 1 },
  })
end

-- Half the width and depth of `object`'s face before its scale, as the game sizes it (a tile
-- takes its image's shape): measured, or `width` and `depth` while it cannot be.
function SafariTable.half_extent(object, width, depth)
  local ok, bounds = pcall(object.getBoundsNormalized)
  local scale = object.getScale()
  if ok and bounds and bounds.size and bounds.size.x > 0 and scale.x > 0 then
    return bounds.size.x / scale.x / 2, bounds.size.z / scale.z / 2
  end
  return width, depth
end
