module {
  // café
}
