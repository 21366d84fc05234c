package memory

import "github.com/pinsight/pinsight/domain/postal"

// officeIDs finds an office's position by its id. Ids are the published
// row numbers, dense from 1: a slice indexed by id holds them in a fraction
// of a map's size; sparse ids (a dataset built otherwise) go in a map.
type officeIDs struct {
	dense  []int32 // position+1 by id; 0: no office
	sparse map[int64]int32
}

func newOfficeIDs(offices []postal.PostOffice) officeIDs {
	top, bottom := int64(0), int64(0)
	for i := range offices {
		top, bottom = max(top, offices[i].ID), min(bottom, offices[i].ID)
	}
	var ids officeIDs
	if bottom == 0 && top < int64(2*len(offices)+1024) {
		ids.dense = make([]int32, top+1)
	} else {
		ids.sparse = make(map[int64]int32, len(offices))
	}
	for i := range offices {
		id := offices[i].ID
		if ids.sparse != nil {
			ids.sparse[id] = int32(i)
		} else {
			ids.dense[id] = int32(i) + 1
		}
	}
	return ids
}

// find returns the position of the office with the id.
func (ids officeIDs) find(id int64) (int32, bool) {
	if ids.sparse != nil {
		i, found := ids.sparse[id]
		return i, found
	}
	if id < 0 || id >= int64(len(ids.dense)) || ids.dense[id] == 0 {
		return 0, false
	}
	return ids.dense[id] - 1, true
}
