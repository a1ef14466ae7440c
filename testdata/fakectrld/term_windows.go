package main

import (
	"os"
	"os/signal"
)

func ignoreTerm() { signal.Ignore(os.Interrupt) }
