-- wrk script: GET /api/v1/pincodes/{pin}, cycling the real PIN codes listed
-- in $PINS_FILE (one per line).
local pins, i = {}, 0

function init(args)
  for line in io.lines(os.getenv("PINS_FILE")) do pins[#pins + 1] = line end
  i = math.random(#pins)
end

function request()
  i = i % #pins + 1
  return wrk.format("GET", "/api/v1/pincodes/" .. pins[i])
end
