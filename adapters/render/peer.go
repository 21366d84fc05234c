package render

import (
	"bufio"
	"fmt"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
)

// fromBrowser reports whether the client of c (a connection accepted by a
// proxy on 127.0.0.1) is a process of the browser: the socket of the
// client's address, found in /proc/net/tcp, is open in one of them. So no
// other program of this machine can use a render's proxy. Where /proc/net
// cannot be read (not Linux), it answers true: the proxy is then only
// guarded by its loopback address and random port.
func (b *browser) fromBrowser(c net.Conn) bool {
	client, err := netip.ParseAddrPort(c.RemoteAddr().String())
	if err != nil {
		return false
	}
	server, err := netip.ParseAddrPort(c.LocalAddr().String())
	if err != nil {
		return false
	}
	inode, readable := socketInode(client, server)
	if !readable {
		return true
	}
	if inode == "" {
		return false
	}
	want := "socket:[" + inode + "]"
	for _, pid := range descendants(b.pid) {
		dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if l, err := os.Readlink(dir + e.Name()); err == nil && l == want {
				return true
			}
		}
	}
	return false
}

// socketInode is the inode of the IPv4 TCP socket whose local address is
// local and remote address remote ("" when none is listed); readable is
// false when /proc/net/tcp cannot be read.
func socketInode(local, remote netip.AddrPort) (inode string, readable bool) {
	f, err := os.Open("/proc/net/tcp")
	if err != nil {
		return "", false
	}
	defer f.Close()
	l, r := procAddr(local), procAddr(remote)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 10 && fields[1] == l && fields[2] == r {
			return fields[9], true
		}
	}
	return "", true
}

// procAddr is ap as /proc/net/tcp writes it: the IPv4 address as a
// little-endian hexadecimal word, a colon, the port in hexadecimal.
func procAddr(ap netip.AddrPort) string {
	a := ap.Addr().Unmap().As4()
	return fmt.Sprintf("%02X%02X%02X%02X:%04X", a[3], a[2], a[1], a[0], ap.Port())
}
