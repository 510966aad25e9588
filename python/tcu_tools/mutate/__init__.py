"""Mutation testing of the RTL: mutants of the simulated
implementations, one operator, constant, condition or bit select changed at a
time, all compiled into one Verilated model and chosen at run time
(+mutant=K), each run through a regression that must fail on it."""
