package ratelimit_test

import (
	"testing"

	"github.com/pinsight/pinsight/domain/ratelimit"
)

func TestSlots(t *testing.T) {
	s := ratelimit.NewSlots(2)
	r1, ok1 := s.Take(7)
	_, ok2 := s.Take(7)
	if _, ok := s.Take(7); !ok1 || !ok2 || ok {
		t.Fatalf("takes of client 7 = %v %v %v, want two then none", ok1, ok2, ok)
	}
	if _, ok := s.Take(8); !ok {
		t.Error("client 8 refused while client 7 holds its own slots")
	}
	r1()
	if _, ok := s.Take(7); !ok {
		t.Error("a released slot was not given back")
	}
	unlimited := ratelimit.NewSlots(-1)
	for i := range 100 {
		if _, ok := unlimited.Take(1); !ok {
			t.Fatalf("take %d of an uncapped client refused", i+1)
		}
	}
}
