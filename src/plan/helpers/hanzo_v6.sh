# hanzo_v6: the loopback has an IPv6 address (localhost may resolve to ::1).
hanzo_v6() { grep -qs '^0\{31\}1 ' /proc/net/if_inet6; }
