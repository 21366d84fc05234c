// Package css holds the small CSS parser behind the font-size checks: the
// top-level rules of a style sheet, the declarations of a block, and font
// sizes in pixels.
package css
