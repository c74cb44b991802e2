"""tileopt: a Triton-style GPU tile compiler driver on xDSL."""
