// The "served" case: Go reads a table's log from a running trestle relay over HTTP, as any tlog
// client would: the checkpoint (note.Open with the relay's verifier key), hash tiles through
// tlog.TileHashReader (which checks every tile it reads against the signed root), entry bundles,
// inclusion proofs for the given indexes (tlog.ProveRecord, tlog.CheckRecord over the bundle's
// record) and a consistency proof from an older checkpoint note (tlog.ProveTree, tlog.CheckTree).
package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/tlog"
)

// checkServed runs the whole read of the log at c.URL (ending in "/").
func checkServed(c Case) (string, error) {
	body, err := get(c.URL + "checkpoint")
	if err != nil {
		return "", err
	}
	tree, origin, err := parseCheckpointNote(string(body), c.Vkeys)
	if err != nil {
		return "", err
	}
	reader := tlog.TileHashReader(tree, &httpTiles{base: c.URL})
	for _, index := range c.Indexes {
		record, err := bundleRecord(c.URL, tree.N, index)
		if err != nil {
			return "", err
		}
		proof, err := tlog.ProveRecord(tree.N, index, reader)
		if err != nil {
			return "", fmt.Errorf("proving record %d: %v", index, err)
		}
		if err := tlog.CheckRecord(proof, tree.N, tree.Hash, index, tlog.RecordHash(record)); err != nil {
			return "", fmt.Errorf("record %d: %v", index, err)
		}
	}
	if c.OldNote != "" {
		old, _, err := parseCheckpointNote(c.OldNote, c.Vkeys)
		if err != nil {
			return "", err
		}
		proof, err := tlog.ProveTree(tree.N, old.N, reader)
		if err != nil {
			return "", fmt.Errorf("proving %d extends %d: %v", tree.N, old.N, err)
		}
		if err := tlog.CheckTree(proof, tree.N, tree.Hash, old.N, old.Hash); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("%s %d", origin, tree.N), nil
}

// parseCheckpointNote opens a C2SP checkpoint note and returns its tree and origin.
func parseCheckpointNote(text string, vkeys []string) (tlog.Tree, string, error) {
	n, err := open(text, vkeys, nil)
	if err != nil {
		return tlog.Tree{}, "", err
	}
	lines := strings.Split(strings.TrimSuffix(n.Text, "\n"), "\n")
	if len(lines) < 3 {
		return tlog.Tree{}, "", errors.New("checkpoint body has fewer than three lines")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		return tlog.Tree{}, "", err
	}
	root, err := hash(lines[2])
	if err != nil {
		return tlog.Tree{}, "", err
	}
	return tlog.Tree{N: size, Hash: root}, lines[0], nil
}

// bundleRecord reads record index from its entry bundle (tile/entries/<N>[.p/<W>] for a tree of size n).
func bundleRecord(base string, n, index int64) ([]byte, error) {
	t := tlog.Tile{H: 8, L: -1, N: index / 256, W: 256}
	if rest := n - t.N*256; rest < 256 {
		t.W = int(rest)
	}
	data, err := get(base + strings.Replace(t.Path(), "tile/8/data/", "tile/entries/", 1))
	if err != nil {
		return nil, err
	}
	for i := int64(0); ; i++ {
		if len(data) < 2 {
			return nil, fmt.Errorf("bundle %d ends before record %d", t.N, index)
		}
		size := int(binary.BigEndian.Uint16(data))
		if len(data) < 2+size {
			return nil, fmt.Errorf("bundle %d ends inside a record", t.N)
		}
		if t.N*256+i == index {
			return data[2 : 2+size], nil
		}
		data = data[2+size:]
	}
}

// httpTiles is a tlog.TileReader over a relay's C2SP tile paths (Go's carry the height: tile/8/...).
type httpTiles struct{ base string }

func (h *httpTiles) Height() int { return 8 }

func (h *httpTiles) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		data, err := get(h.base + strings.Replace(t.Path(), "tile/8/", "tile/", 1))
		if err != nil {
			return nil, err
		}
		out[i] = data
	}
	return out, nil
}

func (h *httpTiles) SaveTiles(tiles []tlog.Tile, data [][]byte) {}

func get(url string) ([]byte, error) {
	res, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s: %s", url, res.Status, body)
	}
	return body, nil
}
