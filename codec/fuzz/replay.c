/*
 * replay.c - runs a fuzz target over a corpus without libFuzzer, so that
 * `make test` replays every committed input with any compiler (and under
 * ASan+UBSan in the sanitizer build). Arguments are files or directories.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: cannot open %s\n", path);
		exit(1);
	}
	uint8_t *data = NULL;
	size_t size = 0, cap = 0, n;
	do {
		if (size == cap) {
			cap = cap ? cap * 2 : 4096;
			data = realloc(data, cap);
		}
		n = fread(data + size, 1, cap - size, f);
		size += n;
	} while (n > 0);
	fclose(f);
	LLVMFuzzerTestOneInput(data, size);
	free(data);
	return 1;
}

static size_t replay(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "replay: cannot stat %s\n", path);
		exit(1);
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path);
	DIR *dir = opendir(path);
	size_t count = 0;
	for (struct dirent *e; dir && (e = readdir(dir));) {
		if (e->d_name[0] == '.')
			continue;
		char child[4096];
		snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
		count += replay(child);
	}
	if (dir)
		closedir(dir);
	return count;
}

int main(int argc, char **argv)
{
	size_t count = 0;
	for (int i = 1; i < argc; i++)
		count += replay(argv[i]);
	if (count == 0) {
		fprintf(stderr, "replay: no input found\n");
		return 1;
	}
	printf("replayed %zu inputs\n", count);
	return 0;
}
