/*
 * test_residual.c - proves swf_residual, the Monte-Carlo of S(k,z) over a
 * channel: a perfect channel loses nothing and the wire carries a repair
 * after every k sources, up to 2z (rounded up to a power of two) sources past
 * the last one counted; a channel that loses everything loses every source;
 * S(1,1) over Bernoulli loss p loses a source exactly when it and its repair
 * are lost (p^2), and rebuilds the others, each with the bytes sent; counting
 * in stretches gives the counts of one go; first_packet moves the stream in
 * time; config_check names each invalid field; a send time past 1e12 ms is
 * refused; and the optical channel's counts are those the WebAssembly build
 * gives (codec/wasm/test/wrapper.test.mjs checks the same figures).
 */
#include <math.h>

#include "check.h"

static swf_residual_config config_of(uint16_t k, uint16_t z, swf_channel_config channel)
{
	return (swf_residual_config){.k = k, .z = z, .packet_ms = 1.0, .channel = channel};
}

static swf_residual_counts run(const swf_residual_config *config, uint64_t sources)
{
	swf_residual *residual;
	swf_residual_counts counts;
	CHECK_OK(swf_residual_new(config, &residual));
	CHECK_OK(swf_residual_advance(residual, sources, &counts));
	swf_residual_free(residual);
	CHECK(counts.sources == sources);
	CHECK(counts.rebuilt_wrong == 0);
	return counts;
}

static void test_perfect_channel(void)
{
	swf_residual_config config = config_of(4, 20, (swf_channel_config){.kind = SWF_CHANNEL_PERFECT});
	swf_residual_counts counts = run(&config, 1000);
	/* 1000 sources and the 64 that settle the last (2 * 20, rounded up to a
	 * power of two), a repair after every 4th. */
	CHECK(counts.lost == 0 && counts.packets_lost == 0 && counts.rebuilt == 0);
	CHECK(counts.packets == 1064 + 266);
}

static void test_everything_lost(void)
{
	swf_residual_config config =
		config_of(2, 10, (swf_channel_config){.kind = SWF_CHANNEL_BERNOULLI, .seed = 1, .loss = 1.0});
	swf_residual_counts counts = run(&config, 500);
	CHECK(counts.lost == 500);
	CHECK(counts.packets_lost == counts.packets);
}

static void test_s11_over_bernoulli(void)
{
	const double p = 0.3;
	const uint64_t sources = 200000;
	swf_residual_config config =
		config_of(1, 1, (swf_channel_config){.kind = SWF_CHANNEL_BERNOULLI, .seed = 11, .loss = p});
	swf_residual_counts counts = run(&config, sources);
	/* 5 standard deviations of each binomial count. */
	double lost = (double)counts.lost / sources;
	CHECK(fabs(lost - p * p) < 5 * sqrt(p * p * (1 - p * p) / sources));
	double rebuilt = (double)counts.rebuilt / sources;
	CHECK(fabs(rebuilt - p * (1 - p)) < 5 * sqrt(p * (1 - p) * (1 - p * (1 - p)) / sources));
}

static void test_stretches_continue_one_stream(void)
{
	swf_residual_config config = config_of(
		3, 30,
		(swf_channel_config){.kind = SWF_CHANNEL_GE_PACKET, .seed = 7, .p = 0.05, .q = 0.3, .loss_bad = 0.8});
	swf_residual_counts once = run(&config, 4000);
	CHECK(once.lost > 0 && once.rebuilt > 0);

	swf_residual *residual;
	CHECK_OK(swf_residual_new(&config, &residual));
	const uint64_t stretches[] = {1000, 1000, 500, 1500};
	swf_residual_counts sum = {0};
	for (size_t i = 0; i < sizeof(stretches) / sizeof(stretches[0]); i++) {
		swf_residual_counts counts;
		CHECK_OK(swf_residual_advance(residual, stretches[i], &counts));
		sum.sources += counts.sources;
		sum.lost += counts.lost;
		sum.packets += counts.packets;
		sum.packets_lost += counts.packets_lost;
	}
	swf_residual_free(residual);
	CHECK(sum.sources == once.sources && sum.lost == once.lost);
	/* One go sends the settling tail once; the stretches too, at the end. */
	CHECK(sum.packets == once.packets && sum.packets_lost == once.packets_lost);
}

static void test_first_packet_moves_the_stream_in_time(void)
{
	/* 100 ms of loss, once, at the start of the wire. */
	static const swf_loss_interval start[] = {{0.0, 100.0}};
	swf_channel_config trace = {.kind = SWF_CHANNEL_TRACE, .intervals = start, .interval_count = 1};
	swf_residual_config config = config_of(10, 10, trace);
	CHECK(run(&config, 1000).packets_lost == 100);
	config.first_packet = 100;
	swf_residual_counts later = run(&config, 1000);
	CHECK(later.packets_lost == 0 && later.lost == 0);
	config.first_packet = 95;
	CHECK(run(&config, 1000).packets_lost == 5);
}

static void test_config_check(void)
{
	swf_channel_config perfect = {.kind = SWF_CHANNEL_PERFECT};
	swf_residual_config config = config_of(0, 10, perfect);
	CHECK(strcmp(swf_residual_config_check(&config), "k") == 0);
	config = config_of(1, 0, perfect);
	CHECK(strcmp(swf_residual_config_check(&config), "z") == 0);
	config = config_of(1, SWF_MAX_WINDOW + 1, perfect);
	CHECK(strcmp(swf_residual_config_check(&config), "z") == 0);
	config = config_of(1, 10, perfect);
	config.packet_ms = -1.0;
	CHECK(strcmp(swf_residual_config_check(&config), "packet_ms") == 0);
	config.packet_ms = NAN;
	CHECK(strcmp(swf_residual_config_check(&config), "packet_ms") == 0);
	config = config_of(1, 10, (swf_channel_config){.kind = SWF_CHANNEL_BERNOULLI, .loss = 2.0});
	CHECK(strcmp(swf_residual_config_check(&config), "loss") == 0);
	swf_residual *residual = NULL;
	CHECK(swf_residual_new(&config, &residual) == SWF_E_INVALID && residual == NULL);
	config = config_of(5, 100, perfect);
	CHECK(swf_residual_config_check(&config) == NULL);
}

static void test_time_limit(void)
{
	swf_residual_config config = config_of(1, 10, (swf_channel_config){.kind = SWF_CHANNEL_PERFECT});
	config.packet_ms = 1e6;
	config.first_packet = 1000000;
	swf_residual *residual;
	swf_residual_counts counts = {.sources = 7};
	CHECK_OK(swf_residual_new(&config, &residual));
	CHECK(swf_residual_advance(residual, 1, &counts) == SWF_E_RANGE);
	CHECK(counts.sources == 7); /* untouched */
	swf_residual_free(residual);
}

static void test_optical_channel_as_in_webassembly(void)
{
	swf_residual_config config = config_of(
		5, 100, (swf_channel_config){.kind = SWF_CHANNEL_GE_TIME, .seed = 1, .p = 0.01, .q = 0.167, .step_ms = 10});
	swf_residual_counts counts = run(&config, 100000);
	printf("optical S(5,100), 100000 sources: lost %llu, packets %llu, packets lost %llu, rebuilt %llu\n",
	       (unsigned long long)counts.lost, (unsigned long long)counts.packets,
	       (unsigned long long)counts.packets_lost, (unsigned long long)counts.rebuilt);
	CHECK(counts.lost == 5870 && counts.packets == 120307 && counts.packets_lost == 7610 && counts.rebuilt == 476);
}

int main(void)
{
	check_expected_kernel();
	test_perfect_channel();
	test_everything_lost();
	test_s11_over_bernoulli();
	test_stretches_continue_one_stream();
	test_first_packet_moves_the_stream_in_time();
	test_config_check();
	test_time_limit();
	test_optical_channel_as_in_webassembly();
	puts("test_residual: all checks passed");
	return 0;
}
