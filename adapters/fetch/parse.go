package fetch

import (
	"github.com/pinsight/pinsight/adapters/internal/htmldoc"
	"github.com/pinsight/pinsight/domain/webpage"
)

// ParseHTML parses b with the HTML5 parsing algorithm (which accepts any
// input, as browsers do) into the domain's document tree: the tree every
// fetched page, and every page the renderer renders, is analysed as.
func ParseHTML(b []byte) *webpage.Node { return htmldoc.Parse(b) }
