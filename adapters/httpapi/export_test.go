package httpapi

import "github.com/pinsight/pinsight/adapters/httpapi/internal/wire"

// ToHTTP exposes the error mapping to the external tests.
func ToHTTP(err error) error { return toHTTP(err) }

// RouteGroups exposes, by the Routes field that serves them, the
// operations of each group that needs other use cases.
func RouteGroups(r Routes) map[string][]string {
	out := map[string][]string{}
	for _, g := range r.groups() {
		out[g.field] = g.ops
	}
	return out
}

// The answer types, under their schema names, for the external tests to
// decode into.
type (
	AccountData          = accountData
	BatchData[T any]     = batchData[T]
	CheckData            = wire.CheckData
	DatasetData          = datasetData
	DecodeData           = decodeData
	DistrictData         = districtData
	DistrictPincodesData = districtPincodesData
	EncodeData           = encodeData
	ErrorBody            = errorBody
	InfoData             = infoData
	KeysData             = keysData
	LikeData             = likeData
	Meta                 = wire.Meta
	NearbyData           = nearbyRecords
	NearestData          = nearestData
	NeighboursData       = neighboursData
	CellOfficesData      = cellOfficesData
	OfficeData           = officeData
	PincodeBatchData     = pincodeBatchData
	PincodeData          = pincodeData
	PincodeValidateData  = pincodeValidateData
	ProjectsData         = projectsData
	ReadyData            = readyData
	ReportData           = wire.ReportData
	ReportsData          = wire.ReportsData
	ReviewData           = reviewData
	ReviewsData          = reviewsData
	SearchData           = searchData
	StateData            = stateData
	StateDistrictsData   = stateDistrictsData
	StateRef             = stateRef
	StatesData           = statesData
	TokenData            = wire.TokenData
	ValidateData         = validateData
	VillageData          = villageData
	VillageSearchData    = villageSearchData
	VillagesData         = villagesData
	UserData             = wire.UserData
	NearbyOffice         = wire.NearbyOffice
	FeedbackData         = wire.FeedbackData
)

// Constants of the contract the external tests check.
const (
	MaxFieldErrors = maxFieldErrors
)
