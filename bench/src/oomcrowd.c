// SPDX-License-Identifier: GPL-2.0
/*
 * oomcrowd: the timed part of reclaim-storm's oom-crowd case, in one process
 * that locks itself in memory, so that the measurement does not itself wait
 * on page-ins (a shell's text is reclaimed and refaulted like everyone's).
 *
 * Given the PIDs of stopped tasks (memhog -S): SIGCONT to all; wait for the
 * first OOM kill (oom_kill in /proc/vmstat, -l SECONDS at most); -H SECONDS
 * more; record each survivor's schedstat run_delay; SIGTERM to all; wait
 * until every one has exited (a pidfd per task: readable at exit, no
 * polling of /proc). A survivor that has not exited -t SECONDS after the
 * SIGTERM gets SIGKILL, as a service manager's stop escalates (systemd:
 * TimeoutStopSec, 90 s by default); if some are still there -t SECONDS
 * later, one OOM kill a second is asked for through /proc/sysrq-trigger
 * ('f') for -t SECONDS more, and whatever remains is reported as a
 * livelock. Every phase is bounded: at most -l + -H + 3 * -t seconds.
 *
 * Prints key=value lines: oom_timeout (no kill within -l), oom_exit_s
 * (SIGTERM to the last exit, escalations included), oom_exit_timeout,
 * oom_exit_sigkilled (tasks still there at the SIGKILL), oom_exit_sysrq
 * (OOM kills asked for), oom_livelock (tasks left at the end).
 * -s FILE gets "pid run_delay_ns" lines, -m FILE (trace_marker) the lines
 * oom-crowd-start and oom-crowd-term.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PROG "oomcrowd"
#include "common.h"

#define MAX_TASKS 4096

static void usage(FILE *f)
{
	fprintf(f, "usage: oomcrowd [-l FIRST_KILL_LIMIT_S] [-H HOLD_S] [-t EXIT_LIMIT_S]\n"
		   "                [-s SCHEDSTAT_OUT] [-m TRACE_MARKER] PID...\n");
}

static struct pollfd pfd[MAX_TASKS];
static int pids[MAX_TASKS];
static unsigned long long delay[MAX_TASKS];
static int ntasks, nleft;

static void marker(int fd, const char *s)
{
	if (fd >= 0 && write(fd, s, strlen(s)) < 0)
		fprintf(stderr, PROG ": trace_marker: %s\n", strerror(errno));
}

static void signal_all(int sig)
{
	for (int i = 0; i < ntasks; i++)
		if (pfd[i].fd >= 0 && syscall(SYS_pidfd_send_signal, pfd[i].fd, sig, NULL, 0) &&
		    errno != ESRCH)
			die("pidfd_send_signal");
}

/* Wait up to @timeout seconds for exits; true once every task has exited. */
static int reap(double timeout)
{
	double end = now_s() + timeout;

	while (nleft) {
		double left = end - now_s();
		int n;

		if (left <= 0)
			return 0;
		n = poll(pfd, ntasks, left > 1 ? 1000 : (int)(left * 1000) + 1);
		if (n < 0 && errno != EINTR)
			die("poll");
		for (int i = 0; n > 0 && i < ntasks; i++) {
			if (pfd[i].fd < 0 || !pfd[i].revents)
				continue;
			close(pfd[i].fd);
			pfd[i].fd = -1;
			nleft--;
		}
	}
	return 1;
}

static unsigned long long oom_kills(int fd)
{
	static char buf[16384];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	char *p;

	if (n <= 0)
		die("/proc/vmstat");
	buf[n] = 0;
	p = strstr(buf, "\noom_kill ");
	return p ? strtoull(p + 10, NULL, 10) : 0;
}

int main(int argc, char **argv)
{
	uint64_t first_limit = 300, hold = 10, exit_limit = 120;
	const char *sched_out = NULL, *marker_path = NULL;
	int vmstat, mfd = -1, sysrq, opt, timeout, sysrq_n = 0, killed = 0;
	unsigned long long k0;
	double t0, t1, t2;

	while ((opt = getopt(argc, argv, "l:H:t:s:m:h")) != -1) {
		switch (opt) {
		case 'l':
			first_limit = parse_u64(optarg, 10, 1, 1 << 20, "bad -l");
			break;
		case 'H':
			hold = parse_u64(optarg, 10, 0, 1 << 20, "bad -H");
			break;
		case 't':
			exit_limit = parse_u64(optarg, 10, 1, 1 << 20, "bad -t");
			break;
		case 's':
			sched_out = optarg;
			break;
		case 'm':
			marker_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind == argc || argc - optind > MAX_TASKS)
		bad_usage("1 to 4096 PIDs");
	for (int i = optind; i < argc; i++) {
		pids[ntasks] = parse_u64(argv[i], 10, 1, 1 << 30, "bad PID");
		pfd[ntasks].fd = syscall(SYS_pidfd_open, pids[ntasks], 0);
		/* a task already reaped is gone: nothing to wait for */
		if (pfd[ntasks].fd < 0 && errno != ESRCH)
			die("pidfd_open");
		nleft += pfd[ntasks].fd >= 0;
		pfd[ntasks++].events = POLLIN;
	}
	vmstat = open("/proc/vmstat", O_RDONLY);
	if (vmstat < 0)
		die("/proc/vmstat");
	sysrq = open("/proc/sysrq-trigger", O_WRONLY);
	if (marker_path) {
		mfd = open(marker_path, O_WRONLY);
		if (mfd < 0)
			die(marker_path);
	}
	/* Everything this process touches from here on is already resident. */
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		die("mlockall");

	k0 = oom_kills(vmstat);
	marker(mfd, "oom-crowd-start\n");
	t0 = now_s();
	signal_all(SIGCONT);
	/* the first kill, -l seconds at most (exits in between are noted) */
	while ((timeout = oom_kills(vmstat) == k0) && now_s() - t0 < first_limit)
		reap(0.2);
	t1 = now_s();
	reap(hold);
	/* what the survivors waited for a CPU, up to here */
	for (int i = 0; i < ntasks; i++) {
		char path[64], buf[128];
		int fd;
		ssize_t n;

		delay[i] = ~0ULL;
		if (pfd[i].fd < 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/schedstat", pids[i]);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = 0;
			if (sscanf(buf, "%*u %llu", &delay[i]) != 1)
				delay[i] = ~0ULL;
		}
	}
	marker(mfd, "oom-crowd-term\n");
	t1 = now_s();
	signal_all(SIGTERM);
	if (!reap(exit_limit)) {
		killed = nleft;
		signal_all(SIGKILL);
		if (!reap(exit_limit)) {
			/* last resort: one OOM kill a second, -t seconds */
			for (uint64_t s = 0; s < exit_limit && nleft; s++) {
				if (sysrq >= 0 && write(sysrq, "f", 1) == 1)
					sysrq_n++;
				reap(1);
			}
		}
	}
	t2 = now_s();
	printf("oom_timeout=%d\n", timeout);
	printf("oom_exit_s=%.3f\n", t2 - t1);
	printf("oom_exit_timeout=%d\n", killed > 0);
	printf("oom_exit_sigkilled=%d\n", killed);
	printf("oom_exit_sysrq=%d\n", sysrq_n);
	printf("oom_livelock=%d\n", nleft);
	if (sched_out) {
		FILE *f = fopen(sched_out, "w");

		if (!f)
			die(sched_out);
		for (int i = 0; i < ntasks; i++)
			if (delay[i] != ~0ULL)
				fprintf(f, "%d %llu\n", pids[i], delay[i]);
		fclose(f);
	}
	return 0;
}
