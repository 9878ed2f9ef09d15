// A map range written as a number.
sdfg.sdfg @p() {
  sdfg.state @s {
    sdfg.map "m" ["i" = 0:4] {
      sdfg.exit ()
    }
  }
}
