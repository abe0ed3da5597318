#!/bin/bash
# Stack depth under a mixed reclaim load (issue 23 point 6): the stack
# tracer's deepest stack, over reclaim's functions only, then over all.
T=/sys/kernel/tracing
cp $TOP/harness/guest/stress.sh /tmp/
phase() {
	echo 0 > $T/stack_max_size
	echo "$1" > $T/stack_trace_filter
	echo 1 > /proc/sys/kernel/stack_tracer_enabled
	STORM=${STORM:-60} /tmp/stress.sh ${DUR:-60} > /tmp/stress.$2.log 2>&1
	echo 0 > /proc/sys/kernel/stack_tracer_enabled
	echo "=== stack $2: max $(cat $T/stack_max_size) bytes (THREAD_SIZE 16384)"
	cat $T/stack_trace
	grep -c '^ok' /tmp/stress.$2.log
}
phase 'shrink_folio_list shrink_lruvec try_to_shrink_lruvec evict_folios lru_note_cost_batch lru_note_cost page_counter_uncharge workingset_eviction workingset_age_nonresident __reclaim_batch_uncharge __reclaim_batch_pass_end __reclaim_batch_end mem_cgroup_uncharge_gather_flush try_to_free_pages try_to_free_mem_cgroup_pages shrink_node pageout swap_writepage' reclaim
phase '' all
