package app

import "go.uber.org/fx"

// Module provides the use cases. Readiness components are collected from the
// "readiness" value group, which adapters feed.
var Module = fx.Module("app",
	fx.Provide(fx.Annotate(NewHealth, fx.ParamTags(`group:"readiness"`))),
	fx.Provide(NewAccounts),
	fx.Provide(NewPostal),
)

// AsComponent tags a constructor of a Component for the readiness group.
func AsComponent(f any) any {
	return fx.Annotate(f, fx.ResultTags(`group:"readiness"`))
}
