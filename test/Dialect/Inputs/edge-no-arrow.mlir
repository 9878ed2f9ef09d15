// An inter-state edge without `->`.
sdfg.sdfg @p() {
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  sdfg.edge @a @b
}
