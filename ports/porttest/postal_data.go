package porttest

import "github.com/pinsight/pinsight/domain/postal"

// PostalDataset returns the small hand-written directory TestPostalStore
// checks stores with: 16 published rows (one exact duplicate, one invalid
// PIN) in six states with LGD codes, two districts named Aurangabad, one
// district known by India Post's spelling (Bagalkot for LGD's Bagalkote),
// two offices at the same point, one without a location, and five villages.
// Office ids are the published row numbers.
func PostalDataset() *postal.Dataset {
	office := func(row int, name, pin, typ, district, state, lat, lon string) postal.RawOffice {
		return postal.RawOffice{Row: row, Circle: "Test Circle", Region: "Test Region", Division: "Test Division",
			Name: name, Pincode: pin, OfficeType: typ, Delivery: "Delivery", District: district, State: state,
			Latitude: lat, Longitude: lon}
	}
	rows := []postal.RawOffice{
		office(1, "Patna GPO", "800001", "HO", "PATNA", "BIHAR", "25.61", "85.14"),
		office(2, "Patna City S.O", "800008", "PO", "PATNA", "BIHAR", "25.594", "85.227"),
		office(3, "Gandhi Maidan S.O", "800001", "PO", "PATNA", "BIHAR", "25.619", "85.145"),
		office(4, "Aurangabad H.O", "824101", "HO", "AURANGABAD", "BIHAR", "24.75", "84.37"),
		office(5, "Aurangabad City S.O", "431001", "PO", "AURANGABAD", "MAHARASHTRA", "19.88", "75.34"),
		office(6, "Mumbai GPO", "400001", "HO", "MUMBAI", "MAHARASHTRA", "18.94", "72.835"),
		office(7, "Kalbadevi S.O", "400002", "PO", "MUMBAI", "MAHARASHTRA", "NA", "NA"),
		office(8, "Kolkata GPO", "700001", "HO", "KOLKATA", "WEST BENGAL", "22.57", "88.35"),
		office(9, "Barrackpore S.O", "700120", "PO", "NORTH 24 PARGANAS", "WEST BENGAL", "22.76", "88.37"),
		office(10, "Lucknow GPO", "226001", "HO", "LUCKNOW", "UTTAR PRADESH", "26.85", "80.945"),
		office(11, "Twin A B.O", "226002", "BO", "LUCKNOW", "UTTAR PRADESH", "26.8", "80.9"),
		office(12, "Twin B B.O", "226002", "BO", "LUCKNOW", "UTTAR PRADESH", "26.8", "80.9"),
		office(13, "Patna GPO", "800001", "HO", "PATNA", "BIHAR", "25.61", "85.14"), // exact duplicate of row 1
		office(14, "Nowhere B.O", "012345", "BO", "PATNA", "BIHAR", "25.6", "85.1"), // invalid PIN
		office(15, "Patna Sahib B.O", "800008", "BO", "PATNA", "BIHAR", "25.595", "85.228"),
		office(16, "Bagalkot H.O", "587101", "HO", "BAGALKOT", "KARNATAKA", "16.18", "75.7"),
	}
	st := func(code int, name string) postal.LGDState { return postal.LGDState{Code: code, Name: name} }
	di := func(code int, name string, state int) postal.LGDDistrict {
		return postal.LGDDistrict{Code: code, Name: name, StateCode: state}
	}
	lgd := &postal.LGD{
		States:    []postal.LGDState{st(10, "BIHAR"), st(27, "MAHARASHTRA"), st(9, "UTTAR PRADESH"), st(19, "WEST BENGAL"), st(35, "ANDAMAN AND NICOBAR ISLANDS"), st(28, "ANDHRA PRADESH"), st(29, "KARNATAKA")},
		Districts: []postal.LGDDistrict{di(200, "AURANGABAD", 10), di(201, "AURANGABAD", 27), di(202, "PATNA", 10), di(203, "MUMBAI", 27), di(204, "KOLKATA", 19), di(205, "NORTH 24 PARGANAS", 19), di(206, "LUCKNOW", 9), di(207, "BAGALKOTE", 29)},
	}
	village := func(row int, state, stateName, district, districtName, code, name, pin string) postal.RawVillage {
		return postal.RawVillage{Row: row, StateCode: state, StateName: stateName, DistrictCode: district,
			DistrictName: districtName, SubdistrictName: "Test Block", VillageCode: code, VillageName: name, Pincode: pin}
	}
	villages := []postal.RawVillage{
		village(1, "19", "WEST BENGAL", "205", "NORTH 24 PARGANAS", "1001", "Nona Chandanpukur", "700120"),
		village(2, "19", "WEST BENGAL", "205", "NORTH 24 PARGANAS", "1002", "Chandanpur", "700120"),
		village(3, "19", "WEST BENGAL", "205", "NORTH 24 PARGANAS", "1003", "Ichapur", "700120"),
		village(4, "19", "WEST BENGAL", "204", "KOLKATA", "1004", "Chandan Nagar", "700001"),
		village(5, "19", "WEST BENGAL", "205", "NORTH 24 PARGANAS", "1001", "Nona Chandanpukur", "700120"), // duplicate
		village(6, "10", "BIHAR", "202", "PATNA", "2001", "Chandanpura", "800008"),
	}
	return postal.Build(rows, villages, lgd)
}
