// Package review holds users' reviews and likes of post offices: the
// validation of a review's text and rating, and the stable identity of an
// office across dataset releases (office ids are per release).
//
// An office's identity is its pincode, its normalised name
// (postal.OfficeKey), its office type and its ordinal among the offices of
// the release sharing those three, in file order (by id). Reviews and likes
// are stored against that identity; an office that disappears from a new
// release keeps its reviews in storage, unseen, until an office with the
// same identity comes back.
package review
