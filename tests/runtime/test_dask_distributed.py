"""The Dask backend's code, unchanged, on a cluster: a ``LocalCluster`` of two worker
processes with a ``Client`` active, as a production cluster is joined (``Client(address)``).

Marked slow: starting two worker processes takes seconds on two cores.
"""

from __future__ import annotations

from collections.abc import Iterator

import dask.array as da
import numpy as np
import pytest
from distributed import Client, LocalCluster, get_task_stream

import ivycheck.runtime as ivy

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            memory_limit="1GiB",
            dashboard_address=None,
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


def test_the_same_code_runs_on_the_workers(client: Client) -> None:
    values = np.arange(40_000, dtype=np.float64).reshape(200, 200)
    with ivy.using_backend("dask"), get_task_stream(client) as stream:
        x = ivy.Array(da.from_array(values, chunks=50))
        total = ivy.zeros((200,), dtype=ivy.float64)
        for step in range(3):  # ``out=`` in a loop: each rebinds ``total`` to a new graph
            ivy.add(total, ivy.sum(ivy.sqrt(x) * step, axis=0), out=total)
        x[:, :10] = -1.0  # a write through a view of the base
        got = ivy.to_numpy(total)
        corner = ivy.to_numpy(x[:2, 8:12])
        ranked = ivy.to_numpy(ivy.argsort(ivy.flip(x[0])))  # computed in one process
    np.testing.assert_allclose(got, 3 * np.sum(np.sqrt(values), axis=0))
    np.testing.assert_array_equal(corner, [[-1, -1, 10, 11], [-1, -1, 210, 211]])
    np.testing.assert_array_equal(
        ranked, np.argsort(np.flip(np.r_[[-1.0] * 10, values[0, 10:]]), stable=True)
    )
    workers = {task["worker"] for task in stream.data}
    assert workers == set(client.scheduler_info()["workers"])  # both workers computed
