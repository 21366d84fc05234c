package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// readPassword reads the password of a new account for email: on a
// terminal it prompts on prompt twice without echo and requires both to
// match; otherwise it reads the first line of in (a pipe, a file).
func readPassword(in io.Reader, prompt io.Writer, email string) (string, error) {
	if f, ok := in.(*os.File); ok && isTerminal(f) {
		fd := int(f.Fd())
		fmt.Fprintf(prompt, "Password for %s: ", email)
		first, err := term.ReadPassword(fd)
		fmt.Fprintln(prompt)
		if err != nil {
			return "", fmt.Errorf("reading the password: %w", err)
		}
		fmt.Fprint(prompt, "Repeat it: ")
		second, err := term.ReadPassword(fd)
		fmt.Fprintln(prompt)
		if err != nil {
			return "", fmt.Errorf("reading the password: %w", err)
		}
		if string(first) != string(second) {
			return "", errors.New("the two passwords differ")
		}
		return nonEmpty(string(first))
	}
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("reading the password from standard input: %w", err)
	}
	return nonEmpty(strings.TrimRight(line, "\r\n"))
}

// nonEmpty refuses an empty password: --password asks for one.
func nonEmpty(pw string) (string, error) {
	if pw == "" {
		return "", errors.New("--password: no password given (type one, or pipe it as the first line of standard input); leave --password out for a key-only account")
	}
	return pw, nil
}
