/* tun.c - TUN devices in named network namespaces. */
#define _GNU_SOURCE
#include "tun.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tool.h"

#define TUN_QUEUE_PACKETS 16384

int netns_enter(const char *netns)
{
	int previous = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (previous < 0)
		fail_errno("open /proc/thread-self/ns/net");
	if (netns == NULL)
		return previous;
	char path[512];
	if (strchr(netns, '/') != NULL)
		snprintf(path, sizeof path, "%s", netns);
	else
		snprintf(path, sizeof path, "/run/netns/%s", netns);
	int target = open(path, O_RDONLY | O_CLOEXEC);
	if (target < 0)
		fail_errno("open network namespace %s", path);
	if (setns(target, CLONE_NEWNET) != 0)
		fail_errno("enter network namespace %s", path);
	close(target);
	return previous;
}

void netns_leave(int previous)
{
	if (setns(previous, CLONE_NEWNET) != 0)
		fail_errno("return to the original network namespace");
	close(previous);
}

static void set_ipv4(int sock, struct ifreq *ifr, unsigned long request, uint32_t address,
		     const char *what)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)&ifr->ifr_addr;
	memset(sin, 0, sizeof *sin);
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = address;
	if (ioctl(sock, request, ifr) != 0)
		fail_errno("set the %s of %s", what, ifr->ifr_name);
}

void tun_check_name(const char *option, const char *name)
{
	const char *percent = strchr(name, '%');
	if (name[0] == '\0' || strlen(name) >= IFNAMSIZ ||
	    name[strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-%")] !=
		    '\0' ||
	    (percent != NULL && (percent[1] != 'd' || strchr(percent + 1, '%') != NULL)))
		usage_fail("%s must be 1 to %d letters, digits, '.', '_' or '-' (with at most one "
			   "%%d, numbered by the kernel), got \"%s\"", option, IFNAMSIZ - 1, name);
}

/* parse_cidr reads "a.b.c.d/prefix" into the address and its netmask. */
static bool parse_cidr(const char *cidr, struct in_addr *address, uint32_t *mask)
{
	char text[64];
	unsigned prefix;
	char extra;
	if (sscanf(cidr, "%63[0-9.]/%u%c", text, &prefix, &extra) != 2 || prefix > 32 ||
	    inet_pton(AF_INET, text, address) != 1)
		return false;
	*mask = prefix == 0 ? 0 : htonl(~0u << (32 - prefix));
	return true;
}

void tun_check_cidr(const char *option, const char *cidr)
{
	struct in_addr address;
	uint32_t mask;
	if (!parse_cidr(cidr, &address, &mask))
		usage_fail("%s must be IPv4 address/prefix like 10.0.0.1/24, got \"%s\"", option,
			   cidr);
}

int tun_create(const char *name, unsigned mtu, const char *cidr, int nonblocking,
	       char *created_name)
{
	int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0));
	if (fd < 0)
		fail_errno("open /dev/net/tun");
	struct ifreq ifr;
	memset(&ifr, 0, sizeof ifr);
	ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
	if (strlen(name) >= IFNAMSIZ)
		fail("device name \"%s\" is longer than %d characters", name, IFNAMSIZ - 1);
	strcpy(ifr.ifr_name, name);
	if (ioctl(fd, TUNSETIFF, &ifr) != 0)
		fail_errno("create TUN device %s", name);
	if (created_name != NULL)
		memcpy(created_name, ifr.ifr_name, IFNAMSIZ);

	int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		fail_errno("open a configuration socket for %s", name);
	/* The kernel drops what overflows a TUN's queue before the reader sees
	 * it; the emulated buffer is the reader's, so this one must not bind. */
	ifr.ifr_qlen = TUN_QUEUE_PACKETS;
	if (ioctl(sock, SIOCSIFTXQLEN, &ifr) != 0)
		fail_errno("set the queue length of %s", name);
	ifr.ifr_mtu = (int)mtu;
	if (ioctl(sock, SIOCSIFMTU, &ifr) != 0)
		fail_errno("set the MTU of %s to %u", name, mtu);
	if (cidr != NULL) {
		struct in_addr address;
		uint32_t mask;
		if (!parse_cidr(cidr, &address, &mask))
			fail("address of %s must be IPv4 address/prefix, got \"%s\"", name, cidr);
		set_ipv4(sock, &ifr, SIOCSIFADDR, address.s_addr, "address");
		set_ipv4(sock, &ifr, SIOCSIFNETMASK, mask, "netmask");
	}
	if (ioctl(sock, SIOCGIFFLAGS, &ifr) != 0)
		fail_errno("read the flags of %s", name);
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(sock, SIOCSIFFLAGS, &ifr) != 0)
		fail_errno("bring %s up", name);
	close(sock);
	return fd;
}
