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

/* tun_create creates the TUN device `name` (IFF_TUN | IFF_NO_PI) in the
 * calling thread's namespace, sets its MTU, a queue long enough that the
 * kernel never drops what a burst puts in it before the reader gets it, the IPv4 address `cidr`
 * ("10.0.0.1/24", or NULL to leave it unaddressed) and brings it up. The
 * device lives as long as the returned descriptor: it vanishes with the
 * process, however the process ends. Fails with a message naming the
 * device. `nonblocking` sets O_NONBLOCK on the descriptor. A name with %d
 * is a template the kernel numbers ("rp%d": rp0); if created_name is not
 * NULL, it receives the device's name (IFNAMSIZ bytes). Names hold only
 * letters, digits, '.', '_', '-' and that %d. */
int tun_create(const char *name, unsigned mtu, const char *cidr, int nonblocking,
	       char *created_name);

#endif /* TUN_H */
