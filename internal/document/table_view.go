package document

// TableColumn is one visible column of a table block.
type TableColumn struct {
	// Title is the column's heading.
	Title string
	// Align is the text alignment: left, center or right.
	Align string
}

// TableCell is one cell of a table block: the blocks of a text column's
// cell, or the raw value of a column of another type.
type TableCell struct {
	Blocks []Node
	Value  any
}

// TableRows reads a table block into its visible columns and its rows in
// display order, for renderers that lay tables out themselves.
func TableRows(n Node) ([]TableColumn, [][]TableCell) {
	t := readTable(n)
	cols := make([]TableColumn, len(t.cols))
	for i, c := range t.cols {
		cols[i] = TableColumn{Title: c.title, Align: c.align}
	}
	rows := make([][]TableCell, len(t.rows))
	for i, r := range t.rows {
		rows[i] = make([]TableCell, len(r))
		for j, c := range r {
			rows[i][j] = TableCell{Blocks: c.blocks, Value: c.value}
		}
	}
	return cols, rows
}

// TableRecordIDs returns the record ids of a table block in the order
// TableRows gives its rows, for renderers that read other columns of a
// record (a card's target and cover).
func TableRecordIDs(n Node) []string { return tableRecordIDs(n.Data) }
