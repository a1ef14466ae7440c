package codesign

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// Requirement expression opcodes and match operations (Apple's
// requirement language in compiled form).
const (
	opFalse              = 0
	opTrue               = 1
	opIdent              = 2
	opAppleAnchor        = 3
	opAnd                = 6
	opOr                 = 7
	opNot                = 9
	opCertField          = 11
	opAppleGenericAnchor = 15
	matchExists          = 0
	matchEqual           = 1
)

const (
	requirementExprForm    = 1
	designatedRequirement  = 3
	leafCertificate        = 0
	requirementWordLen     = 4
	maxRequirementDepth    = 32
	requirementSubjectOU   = "subject.OU"
	requirementIdentFormat = "identifier %s and anchor apple generic and certificate leaf[%s] = %s"
)

// DesignatedRequirement is the requirement every signed slice carries, in
// Apple's text form: the identifier, any certificate Apple issued the
// chain from, and the team in the leaf's subject.
func DesignatedRequirement(identifier, teamID string) string {
	return fmt.Sprintf(requirementIdentFormat, strconv.Quote(identifier), requirementSubjectOU, strconv.Quote(teamID))
}

// requirementSet compiles the designated requirement for identifier and
// teamID into a requirement set blob. "a and b and c" compiles, as
// Apple's compiler does, to and(and(a, b), c) in prefix form.
func requirementSet(identifier, teamID string) []byte {
	var expr []byte
	expr = appendWord(expr, opAnd)
	expr = appendWord(expr, opAnd)
	expr = appendWord(expr, opIdent)
	expr = appendData(expr, identifier)
	expr = appendWord(expr, opAppleGenericAnchor)
	expr = appendWord(expr, opCertField)
	expr = appendWord(expr, leafCertificate)
	expr = appendData(expr, requirementSubjectOU)
	expr = appendWord(expr, matchEqual)
	expr = appendData(expr, teamID)
	req := blob(magicRequirement, append(appendWord(nil, requirementExprForm), expr...))
	return superBlob(magicRequirementSet, map[uint32][]byte{designatedRequirement: req})
}

func appendWord(b []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(b, v) }

// appendData is a length and the bytes, zero-padded to a word.
func appendData(b []byte, s string) []byte {
	b = appendWord(b, uint32(len(s)))
	b = append(b, s...)
	for len(b)%requirementWordLen != 0 {
		b = append(b, 0)
	}
	return b
}

// decompileDesignated reads the designated requirement of a requirement
// set back into text, for the operators this package writes.
func decompileDesignated(set []byte) (string, error) {
	slots, err := readSuperBlob(set, magicRequirementSet)
	if err != nil {
		return "", err
	}
	req, ok := slots[designatedRequirement]
	if !ok {
		return "", invalid("no designated requirement")
	}
	if _, err := readBlob(req, magicRequirement); err != nil {
		return "", err
	}
	if len(req) < blobHeaderLen+requirementWordLen || binary.BigEndian.Uint32(req[blobHeaderLen:]) != requirementExprForm {
		return "", invalid("the designated requirement is not an expression")
	}
	d := decompiler{code: req[blobHeaderLen+requirementWordLen:]}
	text, err := d.expr(0)
	if err != nil {
		return "", err
	}
	if len(d.code) != 0 {
		return "", invalid("%d bytes after the designated requirement's expression", len(d.code))
	}
	return text, nil
}

type decompiler struct{ code []byte }

func (d *decompiler) word() (uint32, error) {
	if len(d.code) < requirementWordLen {
		return 0, invalid("requirement ends early")
	}
	v := binary.BigEndian.Uint32(d.code)
	d.code = d.code[requirementWordLen:]
	return v, nil
}

func (d *decompiler) data() (string, error) {
	n, err := d.word()
	if err != nil {
		return "", err
	}
	padded := (uint64(n) + requirementWordLen - 1) / requirementWordLen * requirementWordLen
	if padded > uint64(len(d.code)) {
		return "", invalid("requirement data runs past its end")
	}
	s := string(d.code[:n])
	d.code = d.code[padded:]
	return s, nil
}

func (d *decompiler) expr(depth int) (string, error) {
	if depth > maxRequirementDepth {
		return "", invalid("requirement nested too deep")
	}
	op, err := d.word()
	if err != nil {
		return "", err
	}
	switch op {
	case opFalse:
		return "never", nil
	case opTrue:
		return "always", nil
	case opAppleAnchor:
		return "anchor apple", nil
	case opAppleGenericAnchor:
		return "anchor apple generic", nil
	case opIdent:
		s, err := d.data()
		return "identifier " + strconv.Quote(s), err
	case opAnd, opOr:
		return d.binary(op, depth)
	case opNot:
		e, err := d.expr(depth + 1)
		return "! (" + e + ")", err
	case opCertField:
		return d.certField()
	}
	return "", invalid("requirement opcode %#x is not one this reader knows", op)
}

func (d *decompiler) binary(op uint32, depth int) (string, error) {
	a, err := d.expr(depth + 1)
	if err != nil {
		return "", err
	}
	b, err := d.expr(depth + 1)
	if err != nil {
		return "", err
	}
	word := " and "
	if op == opOr {
		word = " or "
	}
	if strings.Contains(b, word) {
		b = "(" + b + ")"
	}
	return a + word + b, nil
}

func (d *decompiler) certField() (string, error) {
	slot, err := d.word()
	if err != nil {
		return "", err
	}
	field, err := d.data()
	if err != nil {
		return "", err
	}
	cert := "certificate " + strconv.Itoa(int(int32(slot)))
	if slot == leafCertificate {
		cert = "certificate leaf"
	}
	match, err := d.word()
	if err != nil {
		return "", err
	}
	switch match {
	case matchExists:
		return fmt.Sprintf("%s[%s] /* exists */", cert, field), nil
	case matchEqual:
		v, err := d.data()
		return fmt.Sprintf("%s[%s] = %s", cert, field, strconv.Quote(v)), err
	}
	return "", invalid("requirement match operation %d is not one this reader knows", match)
}
