package learn

import (
	"errors"
	"fmt"
	"math"
	"time"
	"unicode/utf8"
)

// Learned state that did not come from this sidecar's own live reports —
// its file after a restart, a --learn-from pull, a fleet's database — is a
// claim. CheckRecord is the one validation every importer applies to it,
// so that a crafted or damaged record cannot say more than live reports
// could have said.

// MaxClockSkew is how far after the importer's clock a record's time may
// be: replicas' clocks differ by seconds, so a record from further in the
// future (a date in 9999, which would never decay) is refused.
const MaxClockSkew = 5 * time.Minute

// MaxRecordSessions bounds a record's sessions claim (and with it its
// weight): a million sessions is past anything that counts (evidence
// W/(W+1) is within 10⁻⁶ of 1) and keeps sums of weights finite.
const MaxRecordSessions = 1 << 20

// maxRecordQueryBytes bounds a record's query: a live query is at most
// search.MaxQueryLength (4096) characters.
const maxRecordQueryBytes = 4 * 4096

// ErrInvalidRecord is wrapped by CheckRecord's refusals.
var ErrInvalidRecord = errors.New("invalid learned record")

// CheckRecord validates r, a record from outside the live path, as of now:
// it refuses a record without a tool, a query (valid UTF-8, at most 16 KiB),
// a positive finite weight or its time, or dated more than MaxClockSkew
// after now; and it bounds what the record claims to what live reports can
// produce. Each session adds at most weight 1 to a tool, so sessions
// (absent: 1, at most MaxRecordSessions) bounds weight; scope_sessions,
// when present, is raised to sessions and capped alike; miss_queries is
// capped alike, and at least 1 for a query learned by a miss (a claim of
// misses only restricts what the tool learns by misses after it). It returns the
// record as it may be imported and whether it lowered the weight. The
// store then applies the two-session rule to what was imported
// (ToolView.Evidence). Safe for concurrent use (a pure function).
func CheckRecord(r Record, now time.Time) (Record, bool, error) {
	switch {
	case r.Tool == "" || NormalizeQuery(r.Query) == "":
		return r, false, fmt.Errorf("%w: want a tool and a query", ErrInvalidRecord)
	case !utf8.ValidString(r.Tool) || !utf8.ValidString(r.Query) || len(r.Query) > maxRecordQueryBytes || len(r.Tool) > maxRecordQueryBytes:
		return r, false, fmt.Errorf("%w: the tool or query is not valid UTF-8, or longer than %d bytes", ErrInvalidRecord, maxRecordQueryBytes)
	case !(r.Weight > 0) || math.IsInf(r.Weight, 0):
		return r, false, fmt.Errorf("%w: want a positive finite weight, not %v", ErrInvalidRecord, r.Weight)
	case r.At.IsZero():
		return r, false, fmt.Errorf("%w: want the time it was learned (at)", ErrInvalidRecord)
	case r.At.After(now.Add(MaxClockSkew)):
		return r, false, fmt.Errorf("%w: learned at %s, in the future (this clock says %s)", ErrInvalidRecord, r.At.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	case r.Sessions < 0 || r.ScopeSessions < 0:
		return r, false, fmt.Errorf("%w: sessions %d or scope_sessions %d is negative", ErrInvalidRecord, r.Sessions, r.ScopeSessions)
	case r.MissQueries < 0:
		return r, false, fmt.Errorf("%w: miss_queries %d is negative", ErrInvalidRecord, r.MissQueries)
	}
	if r.Miss {
		// A query learned by a miss is one of the tool's miss queries.
		r.MissQueries = max(r.MissQueries, 1)
	}
	r.MissQueries = min(r.MissQueries, MaxRecordSessions)
	r.Sessions = min(max(r.Sessions, 1), MaxRecordSessions)
	if r.ScopeSessions > 0 {
		// A scope has at least the sessions of each of its tools.
		r.ScopeSessions = min(max(r.ScopeSessions, r.Sessions), MaxRecordSessions)
	}
	if r.Weight > float64(r.Sessions) {
		r.Weight = float64(r.Sessions)
		return r, true, nil
	}
	return r, false, nil
}
