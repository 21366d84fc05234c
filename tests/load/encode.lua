-- wrk script: POST /api/v1/digipin/encode with a JSON body, cycling the
-- points listed in $POINTS_FILE ("latitude longitude" per line).
local points, i = {}, 0
local headers = { ["Content-Type"] = "application/json" }

function init(args)
  for line in io.lines(os.getenv("POINTS_FILE")) do
    local lat, lon = line:match("^(%S+)%s+(%S+)$")
    if lat then points[#points + 1] = '{"latitude":' .. lat .. ',"longitude":' .. lon .. '}' end
  end
  i = math.random(#points)
end

function request()
  i = i % #points + 1
  return wrk.format("POST", "/api/v1/digipin/encode", headers, points[i])
end
