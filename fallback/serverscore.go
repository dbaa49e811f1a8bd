package fallback

import "slices"

// serverWeight mixes each matching tool's score with its server's:
// score = (1-serverWeight) × tool score + serverWeight × server score, where
// the server score is the BM25F score of the server as one document (the
// union of its tools' fields), divided by the best server's. A request
// usually needs several tools of one server, and the server as a whole
// covers more of the request's words than any one of its tools: "fetch the
// game with ID 12345 and its player statistics" matches an NBA API's
// get_a_specific_game and get_all_stats together better than any single
// endpoint of another sports API. Tools without a server (no Server and no
// "server__" prefix) are servers of their own, so for them the server score
// is their own score over the server-level statistics. Like feedback, this
// re-ranks tools that match the query and never adds one.
//
// Worked example: two tools with score 0.40, one of a server scoring 1.0
// (the best) and one of a server scoring 0.3, end at 0.9 × 0.40 + 0.1 × 1.0
// = 0.46 and 0.9 × 0.40 + 0.1 × 0.3 = 0.39.
//
// Measured on the bench dev sets (nDCG@10, bfcl / livemcpbench /
// stabletoolbench, with phrase pairs): 0.05 gives +0.001 / +0.003 / +0.015,
// 0.1 gives +0.000 / +0.004 / +0.019, 0.2 gives -0.004 / -0.006 / +0.010;
// 0.1 is the best value on the two sets other than stabletoolbench too.
const serverWeight = 0.1

// serverKeyOf is the key of a tool's server: its lowercase server, else
// its name's "server__" prefix; a tool with neither is a server of its own.
func serverKeyOf(d *docInfo) string {
	k := d.server
	if k == "" {
		k = serverPrefix(d.doc.Name)
	}
	if k == "" {
		k = "\x00" + d.doc.Name // a tool of its own
	}
	return k
}

// serverOf sets d's server ID, making a new server if needed, and adds tool
// id to its members.
func (ix *Index) serverOf(d *docInfo, id int32) {
	k := serverKeyOf(d)
	sid, ok := ix.serverKey.get(k)
	if !ok {
		sid = int32(ix.members.Len())
		ix.serverKey.set(k, sid)
		ix.members.Mut(int(sid))
		ix.numServers++
	}
	d.serverID = sid
	m := ix.members.Mut(int(sid))
	if n := len(*m); ix.serverKey.direct && (n == 0 || (*m)[n-1] < id) {
		*m = append(*m, id) // a build: members are new, IDs ascending
		return
	}
	i, _ := slices.BinarySearch(*m, id)
	*m = slices.Insert(slices.Clip(*m), i, id)
}

// serverSats returns the saturated BM25F term frequencies of server s as
// one pseudo-document: the union of its tools' fields, normalized by the
// servers' average field lengths (frozen at the last full build).
func (ix *Index) serverSats(s int) map[int32]float32 {
	members := *ix.members.At(s)
	var slen [numFields]float64
	for _, id := range members {
		for f := range numFields {
			slen[f] += float64(len(ix.docs.At(int(id)).terms[f]))
		}
	}
	tf := map[int32]float64{}
	for _, id := range members {
		d := ix.docs.At(int(id))
		for f := range numFields {
			norm := 1 - fieldB[f] + fieldB[f]*slen[f]/ix.st.srvAvg[f]
			for _, t := range d.terms[f] {
				tf[t] += fieldWeight[f] / norm
			}
		}
	}
	return saturate(tf)
}

// scoreServers sets s.servers.acc to each server's score for p (each query
// word counted once, by its best term, as for tools), divided by the best
// server's score.
func (ix *Index) scoreServers(s *scratch, p plan) {
	if ns := ix.members.Len(); len(s.servers.acc) != ns {
		s.servers.acc = make([]float64, ns)
		s.servers.slot = make([]float64, ns)
	}
	s.servers.accumulate(ix, true, p.terms, nil)
	best := 0.0
	for _, d := range s.servers.touched {
		best = max(best, s.servers.acc[d])
	}
	if best > 0 {
		for _, d := range s.servers.touched {
			s.servers.acc[d] /= best
		}
	}
}

// smoothByServer mixes every candidate's score with its server's score (see
// serverWeight).
func (ix *Index) smoothByServer(s *scratch, p plan, cs []candidate) {
	ix.scoreServers(s, p)
	if ix.members.Len() == 1 {
		// One server (every tool's serverID is 0: a learned-query index,
		// whose documents have no name and no server), so no tool's
		// document need be read: the same sums, without ~1 µs per 100
		// candidates.
		srv := s.servers.acc[0]
		for i := range cs {
			cs[i].raw = (1-serverWeight)*cs[i].raw + serverWeight*srv
		}
		return
	}
	for i := range cs {
		cs[i].raw = (1-serverWeight)*cs[i].raw + serverWeight*s.servers.acc[ix.docs.At(cs[i].id).serverID]
	}
}
