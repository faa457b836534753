"""A dataset whose ``__getitem__`` computes features with torch on every sample through a
function of the repository (an audio dataset calling ``mel_spectrogram``: ``torch.stft``
and a filterbank ``torch.matmul``) runs that computation in the loader's workers: a work
item, even where the loss calls the same function on the device. A dataset that only
converts its arrays (``torch.from_numpy``) has nothing to rewrite there."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

FEATURES = """
    import numpy as np
    import torch
    import torch.utils.data


    def mel_spectrogram(y, n_fft=1024, hop=256):
        window = torch.hann_window(n_fft)
        spec = torch.stft(y, n_fft, hop_length=hop, window=window, return_complex=True).abs()
        basis = torch.ones(80, n_fft // 2 + 1)
        return torch.log(torch.clamp(torch.matmul(basis, spec), min=1e-5))


    class AudioDataset(torch.utils.data.Dataset):
        def __init__(self, clips):
            self.clips = clips

        def __getitem__(self, index):
            audio = torch.from_numpy(np.asarray(self.clips[index], dtype=np.float32))
            return audio, mel_spectrogram(audio.unsqueeze(0))

        def __len__(self):
            return len(self.clips)
"""
CONVERTING = FEATURES.replace(
    "return audio, mel_spectrogram(audio.unsqueeze(0))", "return audio, audio"
)
TRAIN = """
    import torch
    import torch.nn.functional as F
    from torch import nn

    from features import AudioDataset, mel_spectrogram

    if __name__ == "__main__":
        net = nn.Conv1d(1, 1, 3, padding=1)
        opt = torch.optim.Adam(net.parameters(), lr=2e-4)
        loader = torch.utils.data.DataLoader(AudioDataset([[0.0] * 8192] * 4), batch_size=2)
        for audio, mel in loader:
            fake = net(audio.unsqueeze(1)).squeeze(1)
            loss = F.l1_loss(mel_spectrogram(fake), mel)
            opt.zero_grad()
            loss.backward()
            opt.step()
"""


@pytest.mark.parametrize(("features", "items"), [(FEATURES, 1), (CONVERTING, 0)])
def test_dataset_computing_features_with_torch(tmp_path, features: str, items: int) -> None:
    root = write_repo(tmp_path, {"features.py": features, "train.py": TRAIN})
    review = build_review(str(root))
    found = [w for w in review.work if w.kind == "data-torch-op"]
    assert len(found) == items, [(w.kind, w.what) for w in review.work]
    if items:
        assert found[0].what.startswith("AudioDataset: "), found[0].what
        assert "torch.stft" in found[0].what and "mel_spectrogram" in found[0].what
