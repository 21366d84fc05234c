package main

import (
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/memory/memoryfx"
)

// memoryStorage (memory:) keeps everything in the process: lost on exit.
// It has no schema, and accounts exist only inside the running server.
var memoryStorage = storageBackend{
	serve: func(_ databaseConfig, data dataConfig) fx.Option {
		return fx.Options(memoryfx.Module, memoryPostal(data))
	},
}
