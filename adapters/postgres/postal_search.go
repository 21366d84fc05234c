package postgres

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
)

// officeCandidate is what ranking needs of an office.
type officeCandidate struct {
	ID          int64  `bun:"id"`
	Pincode     string `bun:"pincode"`
	OfficeKey   string `bun:"office_key"`
	DistrictKey string `bun:"district_key"`
	DistrictAlt string `bun:"district_alt_key"`
	rank        int
}

// match ranks the candidate for q and reports whether it matches.
func (c *officeCandidate) match(q postal.SearchQuery) bool {
	o := postal.PostOffice{ID: c.ID, Pincode: postal.Pincode(c.Pincode)}
	r, ok := postal.OfficeRank(&o, c.OfficeKey, c.districtKeys(), q)
	c.rank = r
	return ok
}

// districtKeys are the district's name keys as postal.OfficeRank takes them.
func (c *officeCandidate) districtKeys() []string {
	if c.DistrictAlt == "" {
		return []string{c.DistrictKey}
	}
	return []string{c.DistrictKey, c.DistrictAlt}
}

// hit is the candidate as the domain orders it.
func (c *officeCandidate) hit() postal.OfficeHit {
	return postal.OfficeHit{Rank: c.rank, Pincode: postal.Pincode(c.Pincode), Key: c.OfficeKey, ID: c.ID}
}

// officeCandidatesSQL selects every office that can match a query: one of
// its words, or one of its district's words, starts with the query's first
// word (exact, prefix and word matches all imply it), or its pincode starts
// with the query's digits. Each branch is an index scan.
const officeCandidatesSQL = `
WITH ids AS (
	SELECT office_id AS id FROM post_office_words WHERE word LIKE ?0
	UNION
	SELECT o.id FROM post_offices AS o
	WHERE o.district_id IN (SELECT id FROM postal_districts
		WHERE ' ' || name_key LIKE '% ' || ?0 OR (alt_key <> '' AND ' ' || alt_key LIKE '% ' || ?0))
	UNION
	SELECT id FROM post_offices WHERE ?1 <> '' AND pincode LIKE ?2
)
SELECT o.id, o.pincode, o.office_key, coalesce(d.name_key, '') AS district_key,
	coalesce(d.alt_key, '') AS district_alt_key
FROM ids JOIN post_offices AS o ON o.id = ids.id
LEFT JOIN postal_districts AS d ON d.id = o.district_id`

// SearchOffices implements ports.PostalStore: the database selects the
// candidates, postal.OfficeRank decides and orders them as in memory, and
// the page's offices are read in one more query.
func (s *PostalStore) SearchOffices(ctx context.Context, q postal.SearchQuery, page paging.Page) ([]postal.PostOffice, int, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var out []postal.PostOffice
	var total int
	err := s.read(ctx, "search offices", func(tx bun.Tx) error {
		first, _, _ := strings.Cut(q.Key, " ")
		var cands []officeCandidate
		if err := tx.NewRaw(officeCandidatesSQL, likePrefix(first), q.Digits, likePrefix(q.Digits)).Scan(ctx, &cands); err != nil {
			return err
		}
		var hits []officeCandidate
		hits, total = rankedPage(cands, func(c *officeCandidate) bool { return c.match(q) },
			(*officeCandidate).hit, postal.OfficeHit.Less, page)
		if total == 0 {
			return noData(ctx, tx)
		}
		ids := make([]int64, 0, len(hits))
		for _, h := range hits {
			ids = append(ids, h.ID)
		}
		var err error
		out, err = officesByIDs(ctx, tx, ids)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// officesByIDs reads offices in one query and returns them in ids' order.
func officesByIDs(ctx context.Context, tx bun.Tx, ids []int64) ([]postal.PostOffice, error) {
	if len(ids) == 0 {
		return []postal.PostOffice{}, nil
	}
	var rows []officeRow
	if err := tx.NewSelect().Model(&rows).Column(officeColumns...).Where("id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	byID := make(map[int64]*officeRow, len(rows))
	for i := range rows {
		byID[rows[i].ID] = &rows[i]
	}
	out := make([]postal.PostOffice, 0, len(ids))
	for _, id := range ids {
		if r := byID[id]; r != nil {
			out = append(out, r.toDomain())
		}
	}
	return out, nil
}

// villageCandidate is what ranking needs of a village.
type villageCandidate struct {
	Ord     int    `bun:"ord"`
	Code    string `bun:"code"`
	NameKey string `bun:"name_key"`
	rank    int
}

// hit is the candidate as the domain orders it.
func (c *villageCandidate) hit() postal.VillageHit {
	return postal.VillageHit{Rank: c.rank, Key: c.NameKey, Code: c.Code, Pos: c.Ord}
}

// match ranks the candidate for q and reports whether it matches.
func (c *villageCandidate) match(q postal.SearchQuery) bool {
	r, ok := postal.MatchRank(c.NameKey, q.Key)
	c.rank = r
	return ok
}

// SearchVillages implements ports.PostalStore, ranking with
// postal.MatchRank over the villages with a word starting with the query's
// first word.
func (s *PostalStore) SearchVillages(ctx context.Context, q postal.SearchQuery, stateID, districtID int, page paging.Page) ([]postal.Village, int, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var out []postal.Village
	var total int
	err := s.read(ctx, "search villages", func(tx bun.Tx) error {
		first, _, _ := strings.Cut(q.Key, " ")
		var cands []villageCandidate
		sel := tx.NewSelect().Table("postal_villages").Column("ord", "code", "name_key").
			Where("ord IN (SELECT ord FROM postal_village_words WHERE word LIKE ?)", likePrefix(first))
		if stateID != 0 {
			sel.Where("state_id = ?", stateID)
		}
		if districtID != 0 {
			sel.Where("district_id = ?", districtID)
		}
		if err := sel.Scan(ctx, &cands); err != nil {
			return err
		}
		var hits []villageCandidate
		hits, total = rankedPage(cands, func(c *villageCandidate) bool { return c.match(q) },
			(*villageCandidate).hit, postal.VillageHit.Less, page)
		if total == 0 {
			return noData(ctx, tx)
		}
		ords := make([]int, 0, len(hits))
		for _, h := range hits {
			ords = append(ords, h.Ord)
		}
		var err error
		out, err = villagesByOrds(ctx, tx, ords)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// villagesByOrds reads villages in one query and returns them in ords' order.
func villagesByOrds(ctx context.Context, tx bun.Tx, ords []int) ([]postal.Village, error) {
	if len(ords) == 0 {
		return []postal.Village{}, nil
	}
	var rows []villageRow
	if err := tx.NewSelect().Model(&rows).Column(villageColumns...).Where("ord IN (?)", bun.List(ords)).Scan(ctx); err != nil {
		return nil, err
	}
	byOrd := make(map[int]villageRow, len(rows))
	for _, r := range rows {
		byOrd[r.Ord] = r
	}
	sorted := make([]villageRow, 0, len(ords))
	for _, o := range ords {
		if r, ok := byOrd[o]; ok {
			sorted = append(sorted, r)
		}
	}
	return villagesToDomain(sorted), nil
}
