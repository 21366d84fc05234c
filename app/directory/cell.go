package directory

import (
	"context"

	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
)

// CellOffices pages the offices whose location lies in the cell of a
// DIGIPIN or of a prefix of 1 to 10 symbols (code, read as
// digipin.ParseCell reads it), by pincode, then name, then id; a cell with
// no office is an empty list. A malformed code is a *digipin.SyntaxError.
// See checkPage for the page.
func (dir *Directory) CellOffices(ctx context.Context, code string, page paging.Page) (digipin.Cell, paging.List[postal.PostOffice], error) {
	var none paging.List[postal.PostOffice]
	cell, err := digipin.ParseCell(code)
	if err != nil {
		return cell, none, err
	}
	if page, err = checkPage(page); err != nil {
		return cell, none, err
	}
	offices, total, err := dir.store.CellOffices(ctx, cell, page)
	if err == nil {
		err = dir.WithFeedback(ctx, offices)
	}
	return cell, paging.List[postal.PostOffice]{Items: offices, Total: total, Page: page}, err
}
