package main

import (
	"fmt"
	"strconv"
	"time"
)

// The two console formats ctrld prints, on stdout, coloured even into a
// pipe (testdata/ctrld-output/real-*):
//
//	v1 (zerolog): ESC[90m<stamp>ESC[0m ESC[33mNTC ESC[0m <message> ESC[36merror=ESC[0m"<value>"
//	v2 (zap):     <stamp> TAB ESC[36mNOTICE ESC[0m TAB <message> TAB {"error": "<value>"}
const (
	formatV1 = "v1"
	formatV2 = "v2"
)

// stampLayout is both formats' timestamp.
const stampLayout = "Jan _2 15:04:05.000"

// v2Levels are v2's names for v1's level abbreviations.
var v2Levels = map[string]string{"NTC": "NOTICE", "INF": "INFO", "ERR": "ERROR", "FTL": "FATAL", "WRN": "WARN", "DBG": "DEBUG"}

// Colours by level: v1 colours NTC yellow, v2 NOTICE cyan; both colour
// errors red. The levels no fixture shows keep the v1 fake's colours.
var (
	v1Colours = map[string]string{"NTC": "33", "INF": "32", "ERR": "31", "FTL": "31", "WRN": "33", "DBG": "37"}
	v2Colours = map[string]string{"NOTICE": "36", "INFO": "32", "ERROR": "31", "FATAL": "31", "WARN": "33", "DEBUG": "37"}
)

// formatLine is one console line of ctrld's in format (v1 when empty or
// unknown), for level (a v1 abbreviation) and msg; errValue, when not
// empty, is the line's error field.
func formatLine(format, level, msg, errValue string, at time.Time) string {
	stamp := at.Format(stampLayout)
	if format == formatV2 {
		name := v2Levels[level]
		if name == "" {
			name = level
		}
		line := fmt.Sprintf("%s\t\x1b[%sm%s\x1b[0m\t%s", stamp, colour(v2Colours, name), name, msg)
		if errValue != "" {
			line += "\t{\"error\": " + strconv.Quote(errValue) + "}"
		}
		return line
	}
	// v1 prints the message of an error line in bold.
	if level == "ERR" || level == "FTL" {
		msg = "\x1b[1m" + msg + "\x1b[0m"
	}
	line := fmt.Sprintf("\x1b[90m%s\x1b[0m \x1b[%sm%s\x1b[0m %s", stamp, colour(v1Colours, level), level, msg)
	if errValue != "" {
		line += " \x1b[36merror=\x1b[0m\x1b[31m\x1b[1m" + strconv.Quote(errValue) + "\x1b[0m\x1b[0m"
	}
	return line
}

func colour(colours map[string]string, level string) string {
	if c := colours[level]; c != "" {
		return c
	}
	return "31"
}
