-- The rules object of a table safari built. It carries the game's ruleset (ruleset.json from
-- `safari build`) in its saved state, and other scripts ask it for the rules:
--   local rules = getObjectFromGUID("<this object's GUID>").call("getRuleset")
-- A ruleset this script cannot read (another format, another version, not JSON at all) is
-- refused in the chat with what to do, and getRuleset() gives nil.
local FORMAT = "@FORMAT@"
local FORMAT_VERSION = @FORMAT_VERSION@
-- The key that holds the version in this format.
local VERSION_KEY = "@VERSION_KEY@"

local raw = ""
ruleset = nil

-- The ruleset in `text`, or nil and why it cannot be read.
local function read(text)
  if text == nil or text == "" then
    return nil, "the table carries no ruleset. Build it again with `safari build` and load the new save."
  end
  -- Only an object is decoded: what the game's JSON.decode does with other text is not
  -- documented, and an error there may not be one pcall can catch.
  local ok, decoded = false, nil
  if string.match(text, "^%s*{") then
    ok, decoded = pcall(JSON.decode, text)
  end
  if not ok or type(decoded) ~= "table" then
    return nil, "the ruleset the table carries is not JSON. Build it again with `safari build` and load the new save."
  end
  if decoded.format ~= FORMAT then
    return nil, "the table carries a ruleset of another kind (format " .. tostring(decoded.format)
      .. "), where its scripts read " .. FORMAT .. ". Build it again with `safari build` and load the new save."
  end
  if decoded[VERSION_KEY] ~= FORMAT_VERSION then
    return nil, "the table carries a ruleset of format version " .. tostring(decoded[VERSION_KEY])
      .. ", and its scripts read version " .. FORMAT_VERSION
      .. ". Build the save again with the same safari that built the ruleset, and load the new save."
  end
  return decoded, nil
end

function onLoad(script_state)
  raw = script_state or ""
  local why
  ruleset, why = read(raw)
  if ruleset == nil then
    broadcastToAll(tostring(self.getName()) .. ": " .. why, {1, 0.35, 0.3})
  end
end

function onSave()
  return raw
end

function getRuleset()
  return ruleset
end
