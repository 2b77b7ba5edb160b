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

function onLoad(script_state)
  raw = script_state or ""
  local why
  ruleset, why = SafariTable.read_ruleset(raw, FORMAT, VERSION_KEY, FORMAT_VERSION)
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
