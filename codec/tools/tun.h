/*
 * tun.h - TUN devices in named network namespaces.
 */
#ifndef TUN_H
#define TUN_H

/* netns_enter moves the calling thread into the network namespace `netns`:
 * a name under /run/netns (as `ip netns add` makes) or a path such as
 * /proc/PID/ns/net. NULL stays in the current namespace. Returns a
 * descriptor of the namespace the thread was in, for netns_leave. */
int netns_enter(const char *netns);
void netns_leave(int previous);

/* tun_check_name and tun_check_cidr refuse, through usage_fail naming
 * `option`, a device name tun_create would refuse, or an address that is
 * not IPv4 address/prefix ("10.0.0.1/24"). Names hold only letters, digits,
 * '.', '_', '-' and at most one %d, a template the kernel numbers ("rp%d":
 * rp0), so that they go into JSON lines as they are. */
void tun_check_name(const char *option, const char *name);
void tun_check_cidr(const char *option, const char *cidr);

/* tun_create creates the TUN device `name` (IFF_TUN | IFF_NO_PI) in the
 * calling thread's namespace, sets its MTU, a queue long enough that the
 * kernel never drops what a burst puts in it before the reader gets it, the IPv4 address `cidr`
 * ("10.0.0.1/24", or NULL to leave it unaddressed) and brings it up. The
 * device lives as long as the returned descriptor: it vanishes with the
 * process, however the process ends. Fails with a message naming the
 * device. `nonblocking` sets O_NONBLOCK on the descriptor. If created_name
 * is not NULL, it receives the device's name (IFNAMSIZ bytes; "rp0" for
 * "rp%d"). Check name and cidr first. */
int tun_create(const char *name, unsigned mtu, const char *cidr, int nonblocking,
	       char *created_name);

#endif /* TUN_H */
