-- wrk script: GET /api/v1/pincodes/nearby, cycling the real office points
-- listed in $POINTS_FILE ("latitude longitude" per line).
local points, i = {}, 0

function init(args)
  for line in io.lines(os.getenv("POINTS_FILE")) do
    local lat, lon = line:match("^(%S+)%s+(%S+)$")
    if lat then points[#points + 1] = { lat, lon } end
  end
  i = math.random(#points)
end

function request()
  i = i % #points + 1
  local p = points[i]
  return wrk.format("GET", "/api/v1/pincodes/nearby?latitude=" .. p[1] .. "&longitude=" .. p[2])
end
