package dump

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestRowLinesRoundTrip(t *testing.T) {
	cols := []Column{{Name: "t", Kind: KindText}, {Name: "i", Kind: KindInt}, {Name: "b", Kind: KindBool},
		{Name: "x", Kind: KindBytes}, {Name: "n", Kind: KindText}}
	rows := [][]any{
		{"plain", int64(1), true, []byte{0, 1, 0xff}, nil},
		{"<é>\n\"&\u2028", int64(-1 << 62), false, []byte{}, "x"},
		{"", int64(1<<63 - 1), nil, nil, ""},
	}
	for _, row := range rows {
		var buf bytes.Buffer
		if err := encodeRow(&buf, row); err != nil {
			t.Fatal(err)
		}
		if bytes.ContainsRune(buf.Bytes(), '\n') {
			t.Fatalf("line %q holds a newline", buf.Bytes())
		}
		got, err := decodeRow(buf.Bytes(), cols)
		if err != nil {
			t.Fatalf("decode %s: %v", buf.Bytes(), err)
		}
		if !reflect.DeepEqual(got, row) {
			t.Errorf("decode(encode(%#v)) = %#v", row, got)
		}
	}
}

func TestDecodeRowRefuses(t *testing.T) {
	cols := []Column{{Name: "id", Kind: KindText}, {Name: "n", Kind: KindInt}, {Name: "data", Kind: KindBytes}}
	for line, want := range map[string]string{
		`["a", 1]`:                          "2 values for 3 columns",
		`["a", 1, "AA==", 4]`:               "4 values for 3 columns",
		`[1, 1, "AA=="]`:                    "column id",
		`["a", 1.5, "AA=="]`:                "column n",
		`["a", "1", "AA=="]`:                "column n",
		`["a", 1, "not b64!"]`:              "column data",
		`{"id": "a"}`:                       "not a JSON array",
		`["a", 1, "AA=="] []`:               "more than one",
		`["a", 99999999999999999999, null]`: "column n",
	} {
		if _, err := decodeRow([]byte(line), cols); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("decodeRow(%s) = %v; want an error about %q", line, err, want)
		}
	}
}

func TestNeutral(t *testing.T) {
	ok := []struct {
		kind Kind
		raw  any
		want any
	}{
		{KindText, "a", "a"},
		{KindText, []byte("a"), "a"}, // SQLite may keep text as bytes
		{KindInt, int64(7), int64(7)},
		{KindInt, true, int64(1)},
		{KindBool, int64(0), false}, // SQLite keeps booleans as integers
		{KindBool, int64(1), true},
		{KindBool, true, true},
		{KindBytes, []byte{1}, []byte{1}},
		{KindBytes, "a", []byte("a")},
		{KindText, nil, nil},
	}
	for _, c := range ok {
		got, err := neutral(c.kind, c.raw)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("neutral(%s, %#v) = %#v, %v; want %#v", c.kind, c.raw, got, err, c.want)
		}
	}
	for _, c := range []struct {
		kind Kind
		raw  any
	}{{KindText, "\xff"}, {KindText, int64(1)}, {KindInt, "1"}, {KindInt, 1.5}, {KindBool, "true"}, {KindBytes, int64(1)}, {"", "a"}} {
		if got, err := neutral(c.kind, c.raw); err == nil {
			t.Errorf("neutral(%s, %#v) = %#v; want an error", c.kind, c.raw, got)
		}
	}
}

func TestConvert(t *testing.T) {
	for _, c := range []struct {
		v        any
		from, to Kind
		want     any
	}{
		{int64(2), KindInt, KindBool, true},
		{int64(0), KindInt, KindBool, false},
		{true, KindBool, KindInt, int64(1)},
		{"a", KindText, KindText, "a"},
		{nil, KindText, KindBytes, nil},
	} {
		got, err := convert(c.v, c.from, c.to)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("convert(%#v, %s, %s) = %#v, %v; want %#v", c.v, c.from, c.to, got, err, c.want)
		}
	}
	if _, err := convert("a", KindText, KindBytes); err == nil {
		t.Error("text converted into bytes")
	}
	if convertible(KindText, KindInt) || !convertible(KindBool, KindInt) {
		t.Error("convertible disagrees with convert")
	}
}

func TestSumIgnoresOrder(t *testing.T) {
	var a, b, c summer
	for _, l := range []string{"x", "y", "z"} {
		a.add([]byte(l))
	}
	for _, l := range []string{"z", "x", "y"} {
		b.add([]byte(l))
	}
	for _, l := range []string{"z", "x", "x"} {
		c.add([]byte(l))
	}
	if a.sum() != b.sum() {
		t.Error("the order of the rows changed the sum")
	}
	if s := c.sum(); s == a.sum() || s.Rows != 3 {
		t.Errorf("other rows, same sum: %+v", s)
	}
}
