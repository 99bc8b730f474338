/*
 * sim_switch.h
 *		The switch between the scheduler and a process's coroutine.
 *
 * On x86-64 (GCC or Clang) a switch is a few instructions inline: it saves
 * the stack and frame pointers and the place to go on from, and jumps to
 * the other side's.  The scheduler's side is inlined into its loop (run),
 * so that it neither calls nor returns across a switch.  A switch by
 * functions (the compiler's setjmp and longjmp, one call each way) sent
 * both sides' next return where the processor's return stack did not
 * predict, twice a step; now only a process's return from sim_step can
 * be, when the process that ran before it stopped at another call.  A new
 * process's stack is made by hand, its first switch a jump to its main
 * function.
 *
 * Elsewhere, or built with -DSIM_SWITCH_PORTABLE (to test it), the
 * portable switch (world.c): the compiler's own setjmp and longjmp, a
 * process entered the first time by swapcontext().  So too where the
 * compiler builds for control-flow enforcement (-fcf-protection, on by
 * default in some distributions' compilers: __CET__): a shadow stack
 * knows nothing of stacks switched by hand, and the jump back to the
 * place saved is not to a branch target the processor accepts.
 */
#ifndef SIM_SWITCH_H
#define SIM_SWITCH_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(SIM_SWITCH_PORTABLE) && !defined(__CET__)
#define SIM_SWITCH_ASM

/* Where a coroutine stopped: its stack and frame pointers, where it goes on. */
typedef struct SimJump
{
	void	   *sp;
	void	   *fp;
	void	   *pc;
} SimJump;

/*
 * Saves where this side stops in *from and goes on where *to stopped; this
 * side goes on after the switch once another switches to *from.  Every
 * register but the stack and frame pointers is clobbered, as the compiler
 * is told: it keeps nothing in them across, and saves the callee-saved ones
 * its caller needs in its own frame.
 */
static inline __attribute__((always_inline)) void
sim_switch(SimJump *from, const SimJump *to)
{
	__asm__ volatile("leaq	1f(%%rip), %%rax\n\t"
					 "movq	%%rax, 16(%0)\n\t"
					 "movq	%%rsp, 0(%0)\n\t"
					 "movq	%%rbp, 8(%0)\n\t"
					 "movq	0(%1), %%rsp\n\t"
					 "movq	8(%1), %%rbp\n\t"
					 "jmpq	*16(%1)\n"
					 "1:"
					 : "+D"(from), "+S"(to)
					 :
					 : "rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13",
					   "r14", "r15", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
					   "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
					   "xmm15", "cc", "memory");
}

#else

/*
 * Where a coroutine stopped, for the compiler's own setjmp (five words):
 * it saves the frame and stack pointers and the place to go on from, and
 * the compiler keeps no register live across it.  libc's _setjmp and
 * _longjmp took a sixth of the simulator's time (the signal-mask word and
 * the cleanup walk a switch between coroutines never needs).
 */
typedef void *SimJump[5];

#endif							/* SIM_SWITCH_ASM */

#endif							/* SIM_SWITCH_H */
