package digipin_test

import (
	"testing"

	"github.com/pinsight/pinsight/digipin"
)

var (
	sinkCode digipin.Code
	sinkF    float64
	sinkS    string
)

func BenchmarkEncode(b *testing.B) {
	b.Run("Code", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			sinkCode, _ = digipin.EncodeCode(28.622788+float64(i&1023)*1e-5, 77.213033)
		}
	})
	b.Run("String", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			sinkS, _ = digipin.Encode(28.622788+float64(i&1023)*1e-5, 77.213033)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	code, _ := digipin.ParseCode("39J-49L-L8T4")
	b.Run("Code", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkF, _ = digipin.DecodeCode(code)
		}
	})
	b.Run("String", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkF, _, _ = digipin.Decode("39J-49L-L8T4")
		}
	})
}
