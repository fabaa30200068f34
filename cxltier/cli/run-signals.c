// SPDX-License-Identifier: GPL-2.0-only
/* run-signals.c - a run's signal handlers and timer; the watch's signalfd
 * (run-signals.h) */
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/time.h>
#include "cli/run-signals.h"
#include "core/ending-signals.h"

static volatile sig_atomic_t stop_flag;
static volatile sig_atomic_t timer_fired;
static volatile sig_atomic_t timer_armed;	/* a timed state write is under way */
static bool handlers_on;			/* installed for the run under way */

/* after the deadline (or a stop) the timer ticks on until disarmed: a
 * state write the kernel restarts while another writer holds the hotplug
 * lock (lock_device_hotplug_sysfs: -ERESTARTNOINTR, restarted whatever the
 * handler) takes the signal and goes on as if none had come; the next tick
 * reaches it once it has the lock and migrates pages (offline_pages ends on
 * any pending signal) */
#define TICK_US 50000

static void on_signal(int sig)
{
	if (sig == SIGALRM) {
		timer_fired = 1;
		return;
	}
	if (stop_flag) {	/* the second INT/TERM/HUP/QUIT: as if no handler were there */
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	stop_flag = 1;
	if (timer_armed) {	/* the write may have taken this one in a restart */
		struct itimerval it = { { 0, TICK_US }, { 0, TICK_US } };
		setitimer(ITIMER_REAL, &it, NULL);
	}
}

/* ms > 0: SIGALRM after ms, then every TICK_US until disarmed (0) */
static void arm_timer(unsigned ms)
{
	struct itimerval it = { { 0, ms ? TICK_US : 0 }, { ms / 1000, (long)(ms % 1000) * 1000 } };

	timer_armed = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	timer_armed = ms != 0;
}

void run_signals_begin(struct ct_job_signals *sig, bool handle)
{
	struct sigaction sa;

	stop_flag = 0;
	timer_fired = 0;
	*sig = (struct ct_job_signals){ &stop_flag, &timer_fired, arm_timer };
	if (!handle)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: a blocked state write returns EINTR */
	sigemptyset(&sa.sa_mask);
	/* HUP (the ssh session or terminal gone) and QUIT end a run as INT
	 * and TERM do: at a block's boundary, a --reonline's online half made */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	handlers_on = true;
}

void run_signals_end(void)
{
	if (!handlers_on)
		return;
	arm_timer(0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	handlers_on = false;
}

int run_signals_fd(void)
{
	sigset_t ending;

	ct_ending_signals(&ending);
	sigprocmask(SIG_BLOCK, &ending, NULL);
	return signalfd(-1, &ending, SFD_CLOEXEC | SFD_NONBLOCK);
}

static volatile sig_atomic_t read_stop;
static void on_read_stop(int sig)
{
	(void)sig;
	read_stop = 1;
}

volatile sig_atomic_t *run_signals_stop_flag(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	struct sigaction sa;

	read_stop = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_read_stop;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	return &read_stop;
}
