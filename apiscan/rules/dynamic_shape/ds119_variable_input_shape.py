from apiscan.rules.base import Rule, severities


class VariableInputShape(Rule):
    """A data pipeline that gives the network batches of changing shape: random resizing or
    multi-scale training, variable-length sequences padded only to the longest of each batch,
    collate functions without a fixed padded size.

    Reported once per pipeline (per function), at the first line that makes the shape vary,
    also when the random size was drawn elsewhere: in another method or file, broadcast to
    every rank through a tensor and read back with ``.item()``, stored on ``self`` and passed
    to the function that resizes (the finding names that chain).
    A sample sliced to a length drawn at random (``frames[s : s + n]`` with ``n =
    np.random.randint(...)``, a video clip of a random number of frames) varies the same way,
    where a dataset runs it; a random start with a fixed length (``frames[s : s + 24]``) is a
    crop of one size.
    Randomness with a fixed output size (``RandomResizedCrop(224)``), resizing to a constant
    size, padding to a configured maximum length, and a random resize that the same function
    then crops back to a fixed size (mixup and mosaic paste a randomly scaled image onto a
    canvas and cut ``img[y : y + h, x : x + w]`` with the target's ``h``, ``w``) are fine; so is
    a crop of a random size that is then resized as a whole to a size given outright
    (``img = img[y : y + side, x : x + side]`` then ``cv2.resize(img, (out, out))``, also in
    the loop that retries the crop until it fits, and also where the crop is bound to a new
    name first: ``crop = img[...]`` then ``cv2.resize(crop, (out, out))``), though not one
    whose frames are resized one by one (the random number of frames stays). A
    crop-and-resize given its output size (``resized_crop(img, i, j, h, w, self.size)``)
    has that size whatever box was drawn; a degradation that rescales at random
    (``F.interpolate(x, scale_factor=s)``) and then interpolates back to a size read before
    it (``size=(h0 // sf, w0 // sf)``) ends at one size; a slice of random length reduced
    at once to one number (``mask[t : t + h, l : l + w].sum()``) cuts no sample. The
    largest of the batch's sizes is found however it is written: ``max(widths)``,
    ``np.max(widths)``, ``np.array(widths).max()``, with ``int(im.shape[0])`` still a size.

    Why it breaks on MindSpore
    --------------------------
    The migration guide's first cause of dynamic shape is an input shape that is not fixed:
    images of different sizes, labels of different lengths. A static graph compiled for one
    input shape has to be recompiled, or run on the dynamic-shape path, for every new one.
    Unlike the other rules, the problem starts outside the network, so it rates high in every
    scope: the data code is where it must be fixed.

    Example
    -------
    A collate function that pads each batch only to its own longest sequence::

        tokens = pad_sequence([torch.tensor(t) for t in tokens], batch_first=True)

    Instead
    -------
    Pad or bucket to fixed lengths and pass a mask (the guide's ``_convert_ids_and_mask``);
    resize to a fixed size, or to a small fixed set of sizes compiled once each; in MindSpore,
    ``Dataset.batch(..., pad_info=...)`` pads to a fixed shape::

        n = min(len(ids), max_len)
        ids, mask = ids[:n] + [0] * (max_len - n), [1] * n + [0] * (max_len - n)

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/zh-CN/r1.10/migration_guide/analysis_and_preparation.html
    - https://pytorch.org/docs/stable/generated/torch.nn.utils.rnn.pad_sequence.html
    """

    id = "DS119"
    name = "variable-input-shape"
    message = "this data pipeline produces batches whose shape changes from step to step"
    severity_by_scope = severities(network="high", data="high", host="high")
    apis = (
        "torch.nn.functional.interpolate",
        "torch.nn.utils.rnn.pad_sequence",
        "torch.utils.data.DataLoader",
        "torchvision.transforms.Resize",
    )
    mindspore_apis = ("mindspore.ops.interpolate", "mindspore.dataset.Dataset.batch")
    suggestion = (
        "pad or bucket to fixed lengths with a mask, resize to a fixed size (or a few fixed "
        "sizes); MindSpore: Dataset.batch(pad_info=...)"
    )
    VALID = (
        """
        import torch
        from torch.utils.data import DataLoader


        def collate(batch, max_len: int = 128):
            tokens = torch.zeros(len(batch), max_len, dtype=torch.long)
            for i, (ids, _) in enumerate(batch):
                n = min(len(ids), max_len)
                tokens[i, :n] = torch.tensor(ids[:n])
            labels = torch.tensor([label for _, label in batch])
            return tokens, labels


        def make_loader(dataset):
            return DataLoader(dataset, batch_size=32, collate_fn=collate, drop_last=True)
        """,
        """
        import torch
        import torch.nn.functional as F
        import torchvision.transforms as T


        TRAIN_TRANSFORM = T.Compose([T.RandomResizedCrop(224), T.ToTensor()])


        def resize_batch(images: torch.Tensor) -> torch.Tensor:
            return F.interpolate(images, size=(640, 640), mode="bilinear", align_corners=False)
        """,
        """
        import random

        import cv2
        import numpy as np
        import torch


        def mixup(origin_img, other_img, scale=(0.5, 1.5)):
            jit = random.uniform(*scale)
            h, w = other_img.shape[:2]
            other = cv2.resize(other_img, (int(w * jit), int(h * jit)))
            target_h, target_w = origin_img.shape[:2]
            canvas = np.zeros((max(other.shape[0], target_h), max(other.shape[1], target_w), 3))
            canvas[: other.shape[0], : other.shape[1]] = other
            y = random.randint(0, canvas.shape[0] - target_h)
            x = random.randint(0, canvas.shape[1] - target_w)
            cropped = canvas[y : y + target_h, x : x + target_w]
            return torch.from_numpy(0.5 * origin_img + 0.5 * cropped)
        """,
        """
        import random

        import cv2
        import torch


        def degrade(img, sf: int = 4):
            h, w = img.shape[:2]
            s = random.uniform(1, 2 * sf)
            img = cv2.resize(img, (int(w / s), int(h / s)))
            img = cv2.resize(img, (w // sf, h // sf), interpolation=random.choice([1, 2, 3]))
            return torch.from_numpy(img)
        """,
        """
        import cv2
        import numpy as np
        import torch
        from torch.utils.data import Dataset


        class ClipDataset(Dataset):
            def __init__(self, videos, seq_len: int = 24):
                self.videos = videos
                self.seq_len = seq_len

            def __getitem__(self, i):
                frames = self.videos[i]
                start = np.random.randint(0, len(frames) - self.seq_len)
                clip = frames[start : start + self.seq_len]
                rate = np.random.randint(1, 4)
                strided = frames[start : start + self.seq_len * rate : rate]
                return torch.from_numpy(clip), torch.from_numpy(strided)

            def still(self, i):
                n = np.random.randint(8, 16)
                return cv2.resize(self.videos[i][:n].mean(0), (64, 64))
        """,
        """
        from math import sqrt

        import cv2
        import numpy as np
        import torch
        from torch.utils.data import Dataset


        def sized_crop(img, out: int, tries: int = 10):
            h, w = img.shape[:2]
            for _ in range(tries):
                area = np.random.uniform(0.1, 1.0) * h * w
                ratio = np.random.uniform(0.75, 1.33)
                cw, ch = round(sqrt(area * ratio)), round(sqrt(area / ratio))
                if ch <= h and cw <= w:
                    y = 0 if ch == h else np.random.randint(0, h - ch)
                    x = 0 if cw == w else np.random.randint(0, w - cw)
                    img = img[y : y + ch, x : x + cw]
                    return cv2.resize(img, (out, out))
            return center_crop(img, out)


        def center_crop(img, out: int):
            h, w = img.shape[:2]
            y, x = (h - out) // 2, (w - out) // 2
            return img[y : y + out, x : x + out]


        class Images(Dataset):
            def __init__(self, paths, size: int = 224):
                self.paths = paths
                self.size = size

            def __getitem__(self, i):
                return torch.from_numpy(sized_crop(cv2.imread(self.paths[i]), self.size))
        """,
        """
        import math
        import random

        import cv2
        import numpy as np
        import torch
        from torch.utils.data import Dataset


        def random_sized_crops(images, size: int):
            for _ in range(10):
                h, w = images[0].shape[:2]
                area = np.random.uniform(0.08, 1.0) * h * w
                ratio = np.random.uniform(0.75, 1.33)
                cw = int(round(math.sqrt(area * ratio)))
                ch = int(round(math.sqrt(area / ratio)))
                if ch <= h and cw <= w:
                    y = random.randint(0, h - ch)
                    x = random.randint(0, w - cw)
                    out = []
                    for image in images:
                        cropped = image[y : y + ch, x : x + cw, :]
                        cropped = cv2.resize(cropped, (size, size))
                        out.append(cropped.astype(np.float32))
                    return out
            return [center_crop(image, size) for image in images]


        def center_crop(image, size: int):
            h, w = image.shape[:2]
            y, x = (h - size) // 2, (w - size) // 2
            return image[y : y + size, x : x + size]


        class Clips(Dataset):
            def __init__(self, clips, size: int = 224):
                self.clips = clips
                self.size = size

            def __getitem__(self, i):
                return torch.from_numpy(np.stack(random_sized_crops(self.clips[i], self.size)))
        """,
        """
        import random

        import torchvision.transforms.functional as F


        class RandomSizedCrop:
            def __init__(self, size=(224, 224)):
                self.size = size

            def __call__(self, img):
                h = random.randint(32, img.size[1])
                w = random.randint(32, img.size[0])
                i = random.randint(0, img.size[1] - h)
                j = random.randint(0, img.size[0] - w)
                return F.resized_crop(img, i, j, h, w, self.size)
        """,
        """
        import random

        import torch
        import torch.nn.functional as F


        def degrade(gt: torch.Tensor, scale: int = 4) -> torch.Tensor:
            h0, w0 = gt.size()[2:4]
            s = random.uniform(0.5, 1.5)
            out = F.interpolate(gt, size=(int(h0 / scale * s), int(w0 / scale * s)))
            out = out + 0.01 * torch.randn_like(out)
            if random.random() < 0.5:
                out = F.interpolate(out, size=(h0 // scale, w0 // scale), mode="bicubic")
            else:
                out = F.interpolate(out, size=(h0 // scale, w0 // scale), mode="area")
            return out.clamp(0, 1)
        """,
        """
        import math
        import random

        import numpy as np
        import torch
        from torch.utils.data import Dataset


        class BlockMasks:
            def __init__(self, height: int = 14, width: int = 14, budget: int = 75):
                self.height, self.width, self.budget = height, width, budget

            def _block(self, mask):
                area = random.uniform(16, self.budget)
                aspect = math.exp(random.uniform(-1.2, 1.2))
                h = int(round(math.sqrt(area * aspect)))
                w = int(round(math.sqrt(area / aspect)))
                if h < self.height and w < self.width:
                    top = random.randint(0, self.height - h)
                    left = random.randint(0, self.width - w)
                    covered = mask[top : top + h, left : left + w].sum()
                    if h * w - covered > 0:
                        mask[top : top + h, left : left + w] = 1
                return mask

            def __call__(self):
                return self._block(np.zeros((self.height, self.width), dtype=int))


        class MaskedImages(Dataset):
            def __init__(self, images):
                self.images = images
                self.masks = BlockMasks()

            def __getitem__(self, i):
                return torch.from_numpy(self.images[i]), torch.from_numpy(self.masks())
        """,
        """
        import numpy as np
        import torch
        from torch.utils.data import DataLoader


        def collate(data, side: int = 1024):
            imgs = [s["img"] for s in data]
            widths = [int(im.shape[0]) for im in imgs]
            assert np.array(widths).max() <= side and np.max(widths) > 0
            padded = torch.zeros(len(imgs), side, side, 3)
            for i, im in enumerate(imgs):
                padded[i, : im.shape[0], : im.shape[1]] = im
            return padded


        def make_loader(dataset):
            return DataLoader(dataset, batch_size=8, collate_fn=collate)
        """,
    )
    INVALID = (
        """
        import math
        import random

        import torch.nn.functional as F


        def train_step(model, imgs, targets, img_size: int = 640, stride: int = 32):
            size = random.randrange(img_size // 2, img_size + img_size // 2, stride)
            scale = size / max(imgs.shape[2:])
            new_shape = [math.ceil(s * scale / stride) * stride for s in imgs.shape[2:]]
            imgs = F.interpolate(imgs, size=new_shape, mode="bilinear")  # error
            return model(imgs, targets)
        """,
        """
        import torch
        from torch.nn.utils.rnn import pad_sequence
        from torch.utils.data import DataLoader


        def collate(batch):
            tokens, tags = zip(*batch)
            tokens = pad_sequence([torch.tensor(t) for t in tokens], batch_first=True)  # error
            tags = pad_sequence([torch.tensor(t) for t in tags], batch_first=True, padding_value=-1)
            return tokens, tags


        def make_loader(dataset):
            return DataLoader(dataset, batch_size=32, collate_fn=collate)
        """,
        """
        import random

        import torchvision.transforms as T
        from torch.utils.data import Dataset


        class MultiScaleDataset(Dataset):
            def __init__(self, images, scales=(480, 512, 544, 576, 608)):
                self.images = images
                self.scales = scales

            def __getitem__(self, i):
                size = random.choice(self.scales)
                return T.Resize((size, size))(self.images[i])  # error
        """,
        """
        import random

        import cv2
        import torch


        def random_scale(img, scales=(0.8, 1.0, 1.2)):
            s = random.choice(scales)
            h, w = img.shape[:2]
            img = cv2.resize(img, (int(w * s), int(h * s)))  # error
            k = random.randint(16, 32)
            return torch.from_numpy(img[0 : 0 + k, 0 : 0 + k])
        """,
        """
        import random

        import cv2
        import torch


        def degrade_twice(img):
            h, w = img.shape[:2]
            s = random.uniform(1, 2)
            img = cv2.resize(img, (int(w / s), int(h / s)))  # error
            img = cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2))
            return torch.from_numpy(img)
        """,
        """
        # file: train/schedule.py
        import random

        import torch
        import torch.nn.functional as F


        class Schedule:
            def __init__(self, base=(640, 640)):
                self.base = base

            def draw_size(self):
                sizes = torch.zeros(2, dtype=torch.long)
                side = 32 * random.randint(15, 25)
                sizes[0] = side
                sizes[1] = side
                return sizes[0].item(), sizes[1].item()

            def resize(self, images, size):
                if size != self.base:
                    images = F.interpolate(images, size=size, mode="bilinear")  # error
                return images
        # file: train/loop.py
        from train.schedule import Schedule


        class Loop:
            def __init__(self, schedule: Schedule, model):
                self.schedule = schedule
                self.model = model
                self.size = schedule.base

            def step(self, images, i):
                images = self.schedule.resize(images, self.size)
                if i % 10 == 0:
                    self.size = self.schedule.draw_size()
                return self.model(images)
        """,
        """
        import cv2
        import numpy as np
        import torch
        from torch.utils.data import Dataset


        class ClipDataset(Dataset):
            def __init__(self, videos, seq_len: int = 24, frame_rate: int = 1):
                self.videos = videos
                self.seq_len = seq_len
                self.frame_rate = frame_rate

            def __getitem__(self, i):
                frames = self.videos[i]
                seq_len = np.random.randint(self.seq_len // 2, self.seq_len)
                start = np.random.randint(0, len(frames) - seq_len * self.frame_rate)
                clip = frames[start : start + seq_len * self.frame_rate : self.frame_rate]  # error
                for t in range(len(clip)):
                    clip[t] = cv2.resize(clip[t], (64, 64))
                return torch.from_numpy(clip)
        """,
        """
        import cv2
        import numpy as np
        import torch
        from torch.utils.data import Dataset


        class FrameDataset(Dataset):
            def __init__(self, videos, seq_len: int = 24):
                self.videos = videos
                self.seq_len = seq_len

            def __getitem__(self, i):
                frames = self.videos[i]
                n = np.random.randint(self.seq_len // 2, self.seq_len)
                start = np.random.randint(0, len(frames) - n)
                frames = frames[start : start + n]  # error
                out = []
                for frame in frames:
                    out.append(cv2.resize(frame, (64, 64)))
                return torch.from_numpy(np.stack(out))
        """,
        """
        import random

        import torch
        import torch.nn.functional as F
        import torchvision.transforms.functional as TF


        class RandomSizes:
            def __init__(self, sizes=(192, 224, 256)):
                self.sizes = sizes

            def __call__(self, img):
                side = random.choice(self.sizes)
                return TF.resized_crop(img, 0, 0, 100, 100, (side, side))  # error


        def degrade(gt: torch.Tensor, scale: int = 4) -> torch.Tensor:
            s = random.uniform(0.5, 1.5)
            out = F.interpolate(gt, scale_factor=s, mode="bilinear")  # error
            return F.interpolate(out, size=(out.shape[2] // scale, out.shape[3] // scale))
        """,
        """
        import numpy as np
        import torch
        from torch.utils.data import Dataset


        class PatchDataset(Dataset):
            def __init__(self, signals, max_len: int = 64):
                self.signals = signals
                self.max_len = max_len

            def __getitem__(self, i):
                x = self.signals[i]
                n = np.random.randint(self.max_len // 2, self.max_len)
                start = np.random.randint(0, len(x) - n)
                patch = x[start : start + n]  # error
                energy = x[start : start + n].sum()
                return torch.from_numpy(patch), energy
        """,
        """
        import numpy as np
        import torch
        from torch.utils.data import DataLoader


        def collate(data):
            imgs = [s["img"] for s in data]
            widths = [int(im.shape[0]) for im in imgs]
            heights = [int(im.shape[1]) for im in imgs]
            max_w = np.array(widths).max()
            max_h = np.max(heights)
            padded = torch.zeros(len(imgs), max_w, max_h, 3)  # error
            for i, im in enumerate(imgs):
                padded[i, : im.shape[0], : im.shape[1]] = im
            return padded


        def make_loader(dataset):
            return DataLoader(dataset, batch_size=8, collate_fn=collate)
        """,
    )
