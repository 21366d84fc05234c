-- wrk script: GET /api/v1/pincodes/{pin}, cycling the real PIN codes listed
-- in $PINS_FILE (one per line). With $CLIENTS above 0, each request comes
-- from one of that many client IPs (X-Forwarded-For, for a server trusting
-- 127.0.0.1 as a proxy).
local pins, i = {}, 0
local clients = tonumber(os.getenv("CLIENTS") or "0") or 0

function init(args)
  for line in io.lines(os.getenv("PINS_FILE")) do pins[#pins + 1] = line end
  i = math.random(#pins)
end

function request()
  i = i % #pins + 1
  if clients > 0 then
    local c = math.random(clients) - 1
    local ip = string.format("10.%d.%d.%d", math.floor(c / 65536) % 256, math.floor(c / 256) % 256, c % 256)
    return wrk.format("GET", "/api/v1/pincodes/" .. pins[i], { ["X-Forwarded-For"] = ip })
  end
  return wrk.format("GET", "/api/v1/pincodes/" .. pins[i])
end
