package redis

// Decision exposes the mapping of redis_rate's results to the tests.
var Decision = decision
