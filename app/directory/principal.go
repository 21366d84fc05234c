package directory

import "github.com/pinsight/pinsight/domain/postal"

// Principal is the office that stands for a pincode's offices: the head
// office, else the sub office, else the first branch office (in the order
// given). offices must not be empty.
func Principal(offices []postal.PostOffice) postal.PostOffice {
	best := offices[0]
	for _, o := range offices[1:] {
		if typeOrder(o.OfficeType) < typeOrder(best.OfficeType) {
			best = o
		}
	}
	return best
}
